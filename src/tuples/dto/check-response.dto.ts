/** `getCheckResponse`: the HTTP status mirrors it (200 allowed, 403 not). */
export class CheckResponseDto {
  allowed!: boolean;
}
