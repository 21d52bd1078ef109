import { IsOptional, IsString } from 'class-validator';

/** `jsonWebKeySetGeneratorRequest`. Shapes only; which algorithms, uses and kids are allowed is the service's call. */
export class GenerateKeyDto {
  @IsString()
  alg!: string;

  @IsOptional()
  @IsString()
  kid?: string;

  /** `sig` (default) or `enc`. */
  @IsOptional()
  @IsString()
  use?: string;
}
