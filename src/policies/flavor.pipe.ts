import { Injectable, type PipeTransform } from '@nestjs/common';
import { parseFlavor } from './acp-params.js';
import type { Flavor } from './engine/policy-definition.js';

/** The `{flavor}` path parameter: `regex`, `glob` or `exact`, else 404. */
@Injectable()
export class FlavorPipe implements PipeTransform<string, Flavor> {
  transform(value: string): Flavor {
    return parseFlavor(value);
  }
}
