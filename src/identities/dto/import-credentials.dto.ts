import { Type } from 'class-transformer';
import { IsDefined, IsObject, ValidateNested } from 'class-validator';
import { ImportPasswordCredentialDto } from './import-password-credential.dto.js';

/** `credentials` of POST /identities: the admin import path (later Kratos' shape); password only. */
export class ImportCredentialsDto {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => ImportPasswordCredentialDto)
  password!: ImportPasswordCredentialDto;
}
