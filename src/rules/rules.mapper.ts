import type { AccessRule, RuleHandler } from './access-rule.js';
import type { RuleHandlerResponseDto, RuleResponseDto } from './dto/rule-response.dto.js';

export function toRuleResponse(rule: AccessRule): RuleResponseDto {
  return {
    id: rule.id,
    version: rule.version ?? '',
    description: rule.description,
    match: { methods: [...rule.match.methods], url: rule.match.url },
    authenticators: rule.authenticators.map(toHandlerResponse),
    authorizer: toHandlerResponse(rule.authorizer),
    mutators: rule.mutators.map(toHandlerResponse),
    errors: rule.errors.map(toHandlerResponse),
    upstream: { preserve_host: rule.upstream.preserve_host, strip_path: rule.upstream.strip_path ?? '', url: rule.upstream.url },
  };
}

function toHandlerResponse(handler: RuleHandler): RuleHandlerResponseDto {
  return { handler: handler.handler, config: handler.config ?? null };
}
