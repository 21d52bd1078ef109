import { ArrayMaxSize, IsArray, IsOptional, IsString } from 'class-validator';

/**
 * `jsonWebKey` as received: Hydra's members, all optional strings (`x5c` an array of strings); any
 * other member is refused by the global pipe. Whether they make a usable key is checked by the
 * service (key-validator.ts).
 */
export class JsonWebKeyDto {
  @IsOptional()
  @IsString()
  kid?: string;

  @IsOptional()
  @IsString()
  kty?: string;

  @IsOptional()
  @IsString()
  alg?: string;

  @IsOptional()
  @IsString()
  use?: string;

  @IsOptional()
  @IsString()
  crv?: string;

  @IsOptional()
  @IsString()
  x?: string;

  @IsOptional()
  @IsString()
  y?: string;

  @IsOptional()
  @IsString()
  n?: string;

  @IsOptional()
  @IsString()
  e?: string;

  @IsOptional()
  @IsString()
  d?: string;

  @IsOptional()
  @IsString()
  p?: string;

  @IsOptional()
  @IsString()
  q?: string;

  @IsOptional()
  @IsString()
  dp?: string;

  @IsOptional()
  @IsString()
  dq?: string;

  @IsOptional()
  @IsString()
  qi?: string;

  @IsOptional()
  @IsString()
  k?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  x5c?: string[];
}
