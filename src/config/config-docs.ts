import { CONFIG_VARIABLES } from './config-variables.js';

const START = '<!-- config-variables:start: written by `npm run config:docs` from src/config/config-variables.ts -->';
const END = '<!-- config-variables:end -->';

/** The settings table of docs/configuration.md, one row per declared variable, in declaration order. */
export function configTable(): string {
  const cell = (text: string): string => text.replaceAll('|', '\\|');
  const rows = Object.entries(CONFIG_VARIABLES).map(
    ([key, variable]) =>
      `| \`${key}\` | ${cell(variable.default)} | ${variable.sensitive === true ? 'yes' : ''} | ${cell(variable.description)} |`,
  );
  return ['| Variable | Default | Sensitive | Meaning |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

/** `doc` with the text between its two marker comments replaced by the table (not yet formatted). */
export function withConfigTable(doc: string): string {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start === -1 || end < start) throw new Error(`docs/configuration.md must hold the lines ${START} and ${END}`);
  return `${doc.slice(0, start + START.length)}\n\n${configTable()}\n\n${doc.slice(end)}`;
}
