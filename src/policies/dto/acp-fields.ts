import { applyDecorators } from '@nestjs/common';
import { ArrayMaxSize, IsArray, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { AcpLimits, NO_CONTROL_CHARACTERS, NO_NUL } from '../acp-limits.js';

/** An optional id: at most AcpLimits.idLength characters, no control characters. */
export const AcpId = (): PropertyDecorator =>
  applyDecorators(
    IsOptional(),
    IsString(),
    MaxLength(AcpLimits.idLength),
    Matches(NO_CONTROL_CHARACTERS, { message: '$property must not contain control characters' }),
  );

/** An optional free-text description without NUL characters. */
export const AcpDescription = (): PropertyDecorator =>
  applyDecorators(
    IsOptional(),
    IsString(),
    MaxLength(AcpLimits.descriptionLength),
    Matches(NO_NUL, { message: '$property must not contain NUL characters' }),
  );

/** An optional list of at most `maxItems` strings, each bounded and free of control characters. */
export const AcpStringList = (maxItems: number): PropertyDecorator =>
  applyDecorators(
    IsOptional(),
    IsArray(),
    ArrayMaxSize(maxItems),
    IsString({ each: true }),
    MaxLength(AcpLimits.stringLength, { each: true }),
    Matches(NO_CONTROL_CHARACTERS, { each: true, message: 'each entry of $property must be free of control characters' }),
  );
