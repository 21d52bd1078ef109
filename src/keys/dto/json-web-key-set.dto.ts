import { Type } from 'class-transformer';
import { IsArray, ValidateNested } from 'class-validator';
import { JsonWebKeyDto } from './json-web-key.dto.js';

/** `JSONWebKeySet` as received by `PUT /keys/{set}`. */
export class JsonWebKeySetDto {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => JsonWebKeyDto)
  keys!: JsonWebKeyDto[];
}
