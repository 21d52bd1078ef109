/** `authorizationResult`: also mirrored in the status, 200 allowed, 403 denied. */
export class AllowedResponseDto {
  allowed!: boolean;
}
