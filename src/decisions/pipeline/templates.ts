import { GoTemplate, TemplateSyntaxError } from '../template/go-template.js';
import { HandlerConfigError } from './handler-config.js';

/** Parses a rule's template at load, turning a syntax error into a problem naming the member. */
export function template(source: string, path: string): GoTemplate {
  try {
    return GoTemplate.parse(source);
  } catch (error) {
    if (error instanceof TemplateSyntaxError) throw new HandlerConfigError(path, `invalid template: ${error.message}`);
    throw error;
  }
}

export function templateMap(sources: Readonly<Record<string, string>>, path: string): [string, GoTemplate][] {
  return Object.entries(sources).map(([name, source]) => [name, template(source, `${path}.${name}`)]);
}
