import { describe, expect, it } from 'vitest';
import { GoTemplate, TemplateSyntaxError } from './go-template.js';

const session = {
  Subject: 'alice',
  Extra: { a: { b: 'deep' }, groups: ['x', 'y'], n: 3 },
  Header: {},
  MatchContext: {
    RegexpCaptureGroups: ['http', 'foo'],
    URL: { Scheme: 'http', Host: 'app', Path: '/foo', RawQuery: '', Fragment: '' },
    Method: 'GET',
  },
};

describe('GoTemplate', () => {
  it.each([
    ['{{ print .Subject }}', 'alice'],
    ['{{ .Extra.a.b }}', 'deep'],
    ['{{ printIndex .MatchContext.RegexpCaptureGroups 1 }}', 'foo'],
    ['{{ printIndex .MatchContext.RegexpCaptureGroups 9 }}', ''],
    ['{{ .MatchContext.URL.Path }}', '/foo'],
    ['user:{{ .Subject | upper }}', 'user:ALICE'],
    ['{{ .Extra.missing.key }}', ''],
    ['{{ print "a" .Subject }}', 'aalice'],
    ['{{ .Extra.groups | join "," }}', 'x,y'],
    ['{{ (printIndex .MatchContext.RegexpCaptureGroups 0) }}-{{ .Extra.n }}', 'http-3'],
    ['a  {{- .Subject -}}  b', 'aaliceb'],
    ['{"sub": {{ .Subject | quote }}}', '{"sub": "alice"}'],
    ['no actions', 'no actions'],
  ])('%s renders %s', (source, expected) => {
    expect(GoTemplate.parse(source).render(session)).toBe(expected);
  });

  it.each([
    '{{ if .Subject }}x{{ end }}',
    '{{ range .Extra.groups }}{{ . }}{{ end }}',
    '{{ $x := 1 }}',
    '{{ exec "ls" }}',
    '{{ .Nope }}',
    '{{ .MatchContext.Header }}',
    '{{ .Subject.Len }}',
    '{{ print .Subject ',
    '{{ template "x" }}',
    '{{ .Subject | .Extra }}',
    '{{ printIndex .MatchContext.RegexpCaptureGroups }}',
  ])('refuses %s at parse time', (source) => {
    expect(() => GoTemplate.parse(source)).toThrow(TemplateSyntaxError);
  });

  it('never reaches a prototype member', () => {
    expect(GoTemplate.parse('{{ .Extra.constructor }}{{ .Extra.__proto__ }}').render(session)).toBe('');
  });
});
