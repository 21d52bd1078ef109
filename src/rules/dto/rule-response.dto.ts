/** A rule handler on the wire: Oathkeeper always sends `config`, `null` when the rule gives none. */
export interface RuleHandlerResponseDto {
  readonly handler: string;
  readonly config: Readonly<Record<string, unknown>> | null;
}

/** A rule as Oathkeeper's `GET /rules` sends it: every member present, empty strings for unset ones. */
export interface RuleResponseDto {
  readonly id: string;
  readonly version: string;
  readonly description: string;
  readonly match: { readonly methods: readonly string[]; readonly url: string };
  readonly authenticators: readonly RuleHandlerResponseDto[];
  readonly authorizer: RuleHandlerResponseDto;
  readonly mutators: readonly RuleHandlerResponseDto[];
  readonly errors: readonly RuleHandlerResponseDto[];
  readonly upstream: { readonly preserve_host: boolean; readonly strip_path: string; readonly url: string };
}
