import { Type } from 'class-transformer';
import { IsDefined, IsObject, ValidateNested } from 'class-validator';
import { ImportPasswordConfigDto } from './import-password-config.dto.js';

/** `credentials.password` of an import. */
export class ImportPasswordCredentialDto {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => ImportPasswordConfigDto)
  config!: ImportPasswordConfigDto;
}
