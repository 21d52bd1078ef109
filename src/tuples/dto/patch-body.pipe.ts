import { Injectable, type PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { CommonErrors } from '../../common/errors/app-error.js';
import { validationError } from '../../common/errors/validation-error.js';
import { PatchDeltaDto } from './patch-delta.dto.js';

/**
 * The PATCH /relation-tuples body: a JSON array of deltas, each validated like a DTO (the global pipe
 * leaves arrays alone). The first bad delta is a 400 naming it, e.g. `[2].action`.
 */
@Injectable()
export class PatchBodyPipe implements PipeTransform<unknown, Promise<PatchDeltaDto[]>> {
  async transform(value: unknown): Promise<PatchDeltaDto[]> {
    if (!Array.isArray(value)) throw CommonErrors.invalidRequest('The body must be a JSON array of patch deltas.');
    const deltas: PatchDeltaDto[] = [];
    for (const [index, item] of value.entries()) {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) {
        throw CommonErrors.invalidRequest(`[${index}]: must be an object with action and relation_tuple.`, {
          fields: { [`[${index}]`]: [] },
        });
      }
      const delta = plainToInstance(PatchDeltaDto, item);
      const errors = await validate(delta, { whitelist: true, forbidNonWhitelisted: true });
      if (errors.length > 0) {
        for (const error of errors) error.property = `[${index}].${error.property}`;
        throw validationError(errors);
      }
      deltas.push(delta);
    }
    return deltas;
  }
}
