/** The seed's `completedRequest`: where the login, consent or logout app sends the browser next. */
export class CompletedRequestDto {
  redirect_to!: string;
}
