import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../common/crypto/digest.js';
import { loadConfig } from './config.loader.js';
import { keyOfError } from '../../test/support/config.js';

describe('loadConfig', () => {
  it('has safe defaults', () => {
    const config = loadConfig({}, '1.2.3');
    expect(config.version).toBe('1.2.3');
    expect(config.http).toMatchObject({
      host: '127.0.0.1',
      publicPort: 4444,
      adminPort: 4445,
      proxyPort: undefined,
      bodyLimitBytes: 1048576,
    });
    expect(config.urls.issuer).toBe('http://127.0.0.1:4444');
    expect(config.database.url).toBeUndefined();
    expect(config.admin).toEqual({ auth: 'on', tokenDigests: [] });
    expect(config.errors.exposeInternal).toBe(false);
    expect(config.log.level).toBe('info');
    expect(config.env).toBe('development');
    expect(config.database.cacheMaxStalenessSeconds).toBe(10);
  });

  it('drains for 5 s by default in production and a quarter second elsewhere, unless told otherwise', () => {
    expect(loadConfig({ NODE_ENV: 'production', SECRETS_SYSTEM: 'a-production-secret-123' }, '1.0.0').shutdown.drainDelayMs).toBe(5000);
    expect(loadConfig({}, '1.0.0').shutdown.drainDelayMs).toBe(250);
    expect(loadConfig({ NODE_ENV: 'production', SHUTDOWN_DRAIN_DELAY_MS: '0' }, '1.0.0').shutdown.drainDelayMs).toBe(0);
  });

  it('reads CACHE_MAX_STALENESS as a duration', () => {
    expect(loadConfig({ CACHE_MAX_STALENESS: '30s' }, '1.0.0').database.cacheMaxStalenessSeconds).toBe(30);
    expect(keyOfError({ CACHE_MAX_STALENESS: '0' })).toBe('CACHE_MAX_STALENESS');
  });

  it('reads every documented variable', () => {
    const config = loadConfig(
      {
        NODE_ENV: 'production',
        PUBLIC_PORT: '8000',
        ADMIN_PORT: '8001',
        PROXY_PORT: '8002',
        HOST: '0.0.0.0',
        ISSUER_URL: 'https://auth.example.com/',
        DATABASE_URL: 'postgres://u:p@db:5432/latchkey',
        DATA_DIR: '/tmp/latchkey-data',
        SECRETS_SYSTEM: 'first-secret-0123456789, second-secret-0123456789',
        ADMIN_TOKENS: 'token-a-0123456789abcdef,token-b-0123456789abcdef',
        ADMIN_AUTH: 'off',
        LOG_LEVEL: 'debug',
        EXPOSE_INTERNAL_ERRORS: 'true',
        REDIS_URL: 'redis://127.0.0.1:6379',
        BODY_LIMIT: '2mb',
      },
      '1.0.0',
    );
    expect(config.env).toBe('production');
    expect(config.http).toMatchObject({
      host: '0.0.0.0',
      publicPort: 8000,
      adminPort: 8001,
      proxyPort: 8002,
      bodyLimitBytes: 2 * 1024 * 1024,
    });
    expect(config.urls.issuer).toBe('https://auth.example.com');
    expect(config.urls.issuerIdentifier).toBe('https://auth.example.com/');
    expect(config.urls.admin).toBe('http://localhost:8001');
    expect(config.database.url).toBe('postgres://u:p@db:5432/latchkey');
    expect(config.database.dataDir).toBe('/tmp/latchkey-data');
    expect(config.secrets.system).toEqual(['first-secret-0123456789', 'second-secret-0123456789']);
    expect(config.admin.auth).toBe('off');
    expect(config.admin.tokenDigests).toEqual([sha256Hex('token-a-0123456789abcdef'), sha256Hex('token-b-0123456789abcdef')]);
    expect(config.log.level).toBe('debug');
    expect(config.errors.exposeInternal).toBe(true);
    expect(config.redis.url).toBe('redis://127.0.0.1:6379');
  });

  it.each([
    ['PUBLIC_PORT', 'abc'],
    ['PUBLIC_PORT', '70000'],
    ['ADMIN_PORT', '-1'],
    ['PROXY_PORT', '1.5'],
    ['ISSUER_URL', 'not a url'],
    ['ISSUER_URL', 'ftp://example.com'],
    ['ISSUER_URL', 'https://example.com/?x=1'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['SECRETS_SYSTEM', 'short'],
    ['ADMIN_TOKENS', 'short'],
    ['ADMIN_AUTH', 'maybe'],
    ['LOG_LEVEL', 'loud'],
    ['EXPOSE_INTERNAL_ERRORS', 'perhaps'],
    ['REDIS_URL', 'http://localhost'],
    ['BODY_LIMIT', '12 parsecs'],
    ['BODY_LIMIT', '10'],
    ['NODE_ENV', 'staging'],
    ['DATABASE_POOL_SIZE', '0'],
  ])('refuses %s=%s, naming the key', (key, value) => {
    expect(keyOfError({ [key]: value })).toBe(key);
  });

  it('reads a YAML config file, with the environment taking precedence', () => {
    const dir = mkdtempSync(join(tmpdir(), 'latchkey-config-'));
    const file = join(dir, 'latchkey.yaml');
    writeFileSync(file, 'PUBLIC_PORT: 9000\nADMIN_PORT: 9001\nSECRETS_SYSTEM:\n  - yaml-secret-0123456789\n  - older-secret-0123456789\n');
    const config = loadConfig({ CONFIG_FILE: file, ADMIN_PORT: '9101' }, '1.0.0');
    expect(config.http.publicPort).toBe(9000);
    expect(config.http.adminPort).toBe(9101);
    expect(config.secrets.system).toEqual(['yaml-secret-0123456789', 'older-secret-0123456789']);
  });

  it('reads a JSON config file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'latchkey-config-'));
    const file = join(dir, 'latchkey.json');
    writeFileSync(file, JSON.stringify({ LOG_LEVEL: 'warn', EXPOSE_INTERNAL_ERRORS: true }));
    const config = loadConfig({ CONFIG_FILE: file }, '1.0.0');
    expect(config.log.level).toBe('warn');
    expect(config.errors.exposeInternal).toBe(true);
  });

  it('refuses an unknown key, a bad value or bad syntax in the config file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'latchkey-config-'));
    const unknown = join(dir, 'unknown.yaml');
    writeFileSync(unknown, 'PUBLC_PORT: 9000\n');
    expect(keyOfError({ CONFIG_FILE: unknown })).toBe('PUBLC_PORT');
    const badValue = join(dir, 'bad.yaml');
    writeFileSync(badValue, 'ADMIN_PORT: nope\n');
    expect(keyOfError({ CONFIG_FILE: badValue })).toBe('ADMIN_PORT');
    const badSyntax = join(dir, 'broken.json');
    writeFileSync(badSyntax, '{"LOG_LEVEL": ');
    expect(keyOfError({ CONFIG_FILE: badSyntax })).toBe('CONFIG_FILE');
    expect(keyOfError({ CONFIG_FILE: join(dir, 'missing.yaml') })).toBe('CONFIG_FILE');
  });
});

describe('loadConfig: relation tuples', () => {
  it('has no namespaces, depth 5 and a bounded cache by default', () => {
    expect(loadConfig({}, '1.0.0').tuples).toEqual({ namespaces: [], maxDepth: 5, cacheSize: 100_000, setCacheSize: 100_000 });
  });

  it('reads NAMESPACES as a JSON list, TUPLES_MAX_DEPTH, TUPLES_CACHE_SIZE and TUPLES_SET_CACHE_SIZE', () => {
    const config = loadConfig(
      {
        NAMESPACES: '[{"name":"files","id":1},{"name":"directories","id":2,"config":{}}]',
        TUPLES_MAX_DEPTH: '8',
        TUPLES_CACHE_SIZE: '0',
        TUPLES_SET_CACHE_SIZE: '0',
      },
      '1.0.0',
    );
    expect(config.tuples).toEqual({
      namespaces: [
        { name: 'files', id: 1 },
        { name: 'directories', id: 2 },
      ],
      maxDepth: 8,
      cacheSize: 0,
      setCacheSize: 0,
    });
  });

  it('reads NAMESPACES as a list of mappings from a YAML config file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'latchkey-config-'));
    const file = join(dir, 'latchkey.yaml');
    writeFileSync(file, 'NAMESPACES:\n  - name: files\n    id: 1\n  - name: groups\n    id: 7\n');
    expect(loadConfig({ CONFIG_FILE: file }, '1.0.0').tuples.namespaces).toEqual([
      { name: 'files', id: 1 },
      { name: 'groups', id: 7 },
    ]);
  });

  it.each([
    ['NAMESPACES', 'files'],
    ['NAMESPACES', '{"name":"files","id":1}'],
    ['NAMESPACES', '["files"]'],
    ['NAMESPACES', '[{"name":"files"}]'],
    ['NAMESPACES', '[{"name":"files","id":-1}]'],
    ['NAMESPACES', '[{"name":"files","id":1.5}]'],
    ['NAMESPACES', '[{"name":"files","id":"1"}]'],
    ['NAMESPACES', '[{"name":"a:b","id":1}]'],
    ['NAMESPACES', '[{"name":"a#b","id":1}]'],
    ['NAMESPACES', '[{"name":"","id":1}]'],
    ['NAMESPACES', '[{"name":"has space","id":1}]'],
    ['NAMESPACES', `[{"name":"${'n'.repeat(65)}","id":1}]`],
    ['NAMESPACES', '[{"name":"files","id":1,"colour":"red"}]'],
    ['NAMESPACES', '[{"name":"files","id":1},{"name":"files","id":2}]'],
    ['NAMESPACES', '[{"name":"files","id":1},{"name":"dirs","id":1}]'],
    ['TUPLES_MAX_DEPTH', '0'],
    ['TUPLES_MAX_DEPTH', '101'],
    ['TUPLES_MAX_DEPTH', 'deep'],
    ['TUPLES_CACHE_SIZE', '-1'],
    ['TUPLES_CACHE_SIZE', 'lots'],
    ['TUPLES_SET_CACHE_SIZE', '-1'],
    ['TUPLES_SET_CACHE_SIZE', 'lots'],
  ])('refuses %s=%s, naming the key', (key, value) => {
    expect(keyOfError({ [key]: value })).toBe(key);
  });

  describe('identities', () => {
    const schema = { properties: { traits: { type: 'object' } } };

    it('defaults to the built-in schema and OWASP argon2id parameters', () => {
      expect(loadConfig({}, '1.0.0').identities).toEqual({
        schemas: [],
        defaultSchemaId: undefined,
        argon2: { memoryKib: 19456, iterations: 2, parallelism: 1 },
        hashingConcurrency: Math.min(3, availableParallelism()),
      });
    });

    it('hashes as many at a time as there are cores and one fewer than libuv pool threads, unless IDENTITY_HASHING_CONCURRENCY says otherwise', () => {
      const concurrency = (env: Record<string, string>) => loadConfig(env, '1.0.0').identities.hashingConcurrency;
      const cores = availableParallelism();
      expect(concurrency({ UV_THREADPOOL_SIZE: '1024' })).toBe(Math.min(1023, cores));
      expect(concurrency({ UV_THREADPOOL_SIZE: '2' })).toBe(1);
      expect(concurrency({ UV_THREADPOOL_SIZE: '1' })).toBe(1);
      expect(concurrency({ UV_THREADPOOL_SIZE: 'many' })).toBe(Math.min(3, cores));
      expect(concurrency({ UV_THREADPOOL_SIZE: '16', IDENTITY_HASHING_CONCURRENCY: '2' })).toBe(2);
      expect(keyOfError({ IDENTITY_HASHING_CONCURRENCY: '0' })).toBe('IDENTITY_HASHING_CONCURRENCY');
      expect(keyOfError({ IDENTITY_HASHING_CONCURRENCY: 'two' })).toBe('IDENTITY_HASHING_CONCURRENCY');
    });

    it('reads IDENTITY_SCHEMAS from file://, base64:// and inline JSON, and the argon2 parameters', () => {
      const dir = mkdtempSync(join(tmpdir(), 'latchkey-config-'));
      const file = join(dir, 'person.schema.json');
      writeFileSync(file, JSON.stringify(schema));
      const base64 = `base64://${Buffer.from(JSON.stringify(schema)).toString('base64')}`;
      const config = loadConfig(
        {
          IDENTITY_SCHEMAS: JSON.stringify([
            { id: 'person', url: `file://${file}` },
            { id: 'b64', url: base64 },
            { id: 'inline', url: JSON.stringify(schema) },
          ]),
          IDENTITY_DEFAULT_SCHEMA_ID: 'b64',
          IDENTITY_ARGON2_MEMORY_KIB: '65536',
          IDENTITY_ARGON2_ITERATIONS: '3',
          IDENTITY_ARGON2_PARALLELISM: '2',
        },
        '1.0.0',
      ).identities;
      expect(config.schemas).toEqual([
        { id: 'person', url: `file://${file}`, document: schema },
        { id: 'b64', url: base64, document: schema },
        { id: 'inline', url: JSON.stringify(schema), document: schema },
      ]);
      expect(config.defaultSchemaId).toBe('b64');
      expect(config.argon2).toEqual({ memoryKib: 65536, iterations: 3, parallelism: 2 });
    });

    it('reads IDENTITY_SCHEMAS as a list of mappings with an inline document from a YAML config file', () => {
      const dir = mkdtempSync(join(tmpdir(), 'latchkey-config-'));
      const file = join(dir, 'latchkey.yaml');
      writeFileSync(file, 'IDENTITY_SCHEMAS:\n  - id: person\n    url:\n      properties:\n        traits:\n          type: object\n');
      expect(loadConfig({ CONFIG_FILE: file }, '1.0.0').identities.schemas).toEqual([{ id: 'person', url: 'inline', document: schema }]);
    });

    it.each([
      ['IDENTITY_SCHEMAS', 'person'],
      ['IDENTITY_SCHEMAS', '{"id":"a","url":"{}"}'],
      ['IDENTITY_SCHEMAS', '[{"id":"a"}]'],
      ['IDENTITY_SCHEMAS', '[{"id":"a b","url":"{}"}]'],
      ['IDENTITY_SCHEMAS', '[{"id":"a","url":"{}","extra":1}]'],
      ['IDENTITY_SCHEMAS', '[{"id":"a","url":"{}"},{"id":"a","url":"{}"}]'],
      ['IDENTITY_SCHEMAS', '[{"id":"a","url":"https://example.com/s.json"}]'],
      ['IDENTITY_SCHEMAS', '[{"id":"a","url":"file:///nonexistent/latchkey.json"}]'],
      ['IDENTITY_SCHEMAS', '[{"id":"a","url":"base64://bm90IGpzb24="}]'],
      ['IDENTITY_SCHEMAS', '[{"id":"a","url":"{not json"}]'],
      ['IDENTITY_SCHEMAS', '[{"id":"a","url":"[1]"}]'],
      ['IDENTITY_ARGON2_MEMORY_KIB', '1024'],
      ['IDENTITY_ARGON2_ITERATIONS', '1'],
      ['IDENTITY_ARGON2_PARALLELISM', '0'],
      ['IDENTITY_ARGON2_PARALLELISM', 'many'],
    ])('refuses %s=%s, naming the key', (key, value) => {
      expect(keyOfError({ [key]: value })).toBe(key);
    });
  });
  describe('ui and claims mapping', () => {
    it('defaults the brand and parses the claims mapping', () => {
      const config = loadConfig({ OIDC_CLAIMS_MAPPING: '{"given_name": "first", "website": null}', UI_PRIMARY_COLOR: '#AbC' }, '1.0.0');
      expect(config.ui).toEqual({ productName: 'Latchkey', logoUrl: undefined, primaryColor: '#abc', templatesDir: undefined });
      expect(config.oauth2.claimsMapping).toEqual({ given_name: 'first', website: null });
    });
    it.each([
      ['OIDC_CLAIMS_MAPPING', '[]'],
      ['OIDC_CLAIMS_MAPPING', '{"sub": "id"}'],
      ['OIDC_CLAIMS_MAPPING', '{"name": "a..b"}'],
      ['OIDC_CLAIMS_MAPPING', '{"name": 3}'],
      ['UI_PRIMARY_COLOR', 'red;}body{display:none'],
      ['UI_LOGO_URL', 'javascript:alert(1)'],
      ['UI_TEMPLATES_DIR', '/nonexistent/latchkey-templates'],
    ])('%s=%s stops the boot naming the key', (key, value) => {
      expect(keyOfError({ [key]: value })).toBe(key);
    });
  });
  describe('oauth2 and cookies', () => {
    it('defaults to Hydra lifetimes, the built-in pages under the issuer and cookies secure only on https', () => {
      const config = loadConfig({ ISSUER_URL: 'http://auth.local:4444/' }, '1.0.0');
      expect(config.oauth2.ttl).toEqual({
        accessToken: 3600,
        refreshToken: 720 * 3600,
        idToken: 3600,
        authorizationCode: 600,
        loginConsentRequest: 1800,
      });
      expect(config.oauth2.urls.login).toBe('http://auth.local:4444/ui/oauth2/login');
      expect(config.oauth2.urls.consent).toBe('http://auth.local:4444/ui/oauth2/consent');
      expect(config.oauth2.urls.logout).toBe('http://auth.local:4444/ui/oauth2/logout');
      expect(config.oauth2.builtInPages).toEqual({ login: true, consent: true, logout: true });
      const external = loadConfig({ ISSUER_URL: 'http://auth.local:4444/', URLS_CONSENT: 'https://apps.example/consent' }, '1.0.0');
      expect(external.oauth2.builtInPages).toEqual({ login: true, consent: false, logout: true });
      expect(config.oauth2.urls.error).toBe('http://auth.local:4444/oauth2/fallbacks/error');
      expect(config.oauth2.subjectTypes).toEqual(['public']);
      expect(config.oauth2.accessTokenStrategy).toBe('opaque');
      expect(config.oauth2.janitorIntervalSeconds).toBe(3600);
      expect(config.cookies).toEqual({ secure: false, sameSite: 'lax' });
      expect(loadConfig({ ISSUER_URL: 'https://auth.example.com' }, '1.0.0').cookies.secure).toBe(true);
    });

    it('reads durations in seconds, minutes and hours', () => {
      const config = loadConfig({ TTL_ACCESS_TOKEN: '90', TTL_REFRESH_TOKEN: '2h', TTL_AUTH_CODE: '30s', TTL_ID_TOKEN: '5m' }, '1.0.0');
      expect(config.oauth2.ttl).toMatchObject({ accessToken: 90, refreshToken: 7200, authorizationCode: 30, idToken: 300 });
      expect(loadConfig({ OAUTH2_JANITOR_INTERVAL: '0' }, '1.0.0').oauth2.janitorIntervalSeconds).toBe(0);
    });

    it.each([
      ['TTL_ACCESS_TOKEN', '1d'],
      ['TTL_ACCESS_TOKEN', '0'],
      ['TTL_LOGIN_CONSENT_REQUEST', '-5m'],
      ['OAUTH2_ACCESS_TOKEN_STRATEGY', 'paseto'],
      ['OIDC_SUBJECT_TYPES', 'public,anonymous'],
      ['URLS_LOGIN', 'ftp://login.example.com'],
      ['COOKIE_SAME_SITE', 'sometimes'],
    ])('refuses %s=%s', (key, value) => {
      expect(keyOfError({ [key]: value })).toBe(key);
    });

    it('treats the admin scope as privileged and gives client assertions a 60 s clock skew by default', () => {
      const defaults = loadConfig({}, '1.0.0').oauth2;
      expect(defaults.privilegedScopes).toEqual(['latchkey.admin']);
      expect(defaults.clockSkewSeconds).toBe(60);
      const set = loadConfig({ OAUTH2_ADMIN_SCOPE: 'ops.root', OAUTH2_CLOCK_SKEW: '0' }, '1.0.0').oauth2;
      expect(set.privilegedScopes).toEqual(['ops.root']);
      expect(set.clockSkewSeconds).toBe(0);
      expect(keyOfError({ OAUTH2_CLOCK_SKEW: '-1' })).toBe('OAUTH2_CLOCK_SKEW');
    });

    it('keeps each subject type once', () => {
      expect(loadConfig({ OIDC_SUBJECT_TYPES: 'pairwise, public, pairwise' }, '1.0.0').oauth2.subjectTypes).toEqual(['pairwise', 'public']);
    });
  });

  describe('self-service', () => {
    it('has Kratos-like defaults with issuer-relative UI URLs', () => {
      const config = loadConfig({ ISSUER_URL: 'https://id.example.com' }, '1.0.0').selfService;
      expect(config).toEqual({
        flowLifespan: 3600,
        sessionLifespan: 86_400,
        privilegedSessionMaxAge: 900,
        sessionCacheTtl: 30,
        defaultBrowserReturnUrl: 'https://id.example.com',
        allowedReturnUrls: [],
        logoutRequiresToken: false,
        urls: {
          login: 'https://id.example.com/ui/login',
          registration: 'https://id.example.com/ui/registration',
          settings: 'https://id.example.com/ui/settings',
          recovery: 'https://id.example.com/ui/recovery',
          verification: 'https://id.example.com/ui/verification',
          error: 'https://id.example.com/ui/error',
        },
        loginThrottle: { maxFailuresPerIdentifier: 10, maxFailuresPerIp: 100, windowSeconds: 900 },
      });
    });

    it('reads SELFSERVICE_LOGOUT_REQUIRE_TOKEN', () => {
      expect(loadConfig({ SELFSERVICE_LOGOUT_REQUIRE_TOKEN: 'true' }, '1.0.0').selfService.logoutRequiresToken).toBe(true);
      expect(keyOfError({ SELFSERVICE_LOGOUT_REQUIRE_TOKEN: 'maybe' })).toBe('SELFSERVICE_LOGOUT_REQUIRE_TOKEN');
    });

    it('reads durations, the return URL allow-list, the UI URLs and the throttle', () => {
      const config = loadConfig(
        {
          SELFSERVICE_FLOW_LIFESPAN: '10m',
          SESSION_LIFESPAN: '720h',
          SESSION_CACHE_TTL: '0',
          SELFSERVICE_PRIVILEGED_SESSION_MAX_AGE: '5m',
          SELFSERVICE_ALLOWED_RETURN_URLS: 'https://app.example.com/, https://admin.example.com/cb',
          URLS_SELFSERVICE_LOGIN_UI: 'https://app.example.com/login',
          SELFSERVICE_LOGIN_MAX_FAILURES_PER_IP: '0',
        },
        '1.0.0',
      ).selfService;
      expect(config).toMatchObject({ flowLifespan: 600, sessionLifespan: 2_592_000, sessionCacheTtl: 0, privilegedSessionMaxAge: 300 });
      expect(config.allowedReturnUrls).toEqual(['https://app.example.com/', 'https://admin.example.com/cb']);
      expect(config.urls.login).toBe('https://app.example.com/login');
      expect(config.loginThrottle.maxFailuresPerIp).toBe(0);
    });

    it.each([
      ['SELFSERVICE_FLOW_LIFESPAN', '0'],
      ['SESSION_LIFESPAN', '1d'],
      ['SELFSERVICE_ALLOWED_RETURN_URLS', 'https://ok.example.com,javascript:alert(1)'],
      ['SELFSERVICE_ALLOWED_RETURN_URLS', 'https://ok.example.com/?x=1'],
      ['URLS_SELFSERVICE_ERROR_UI', 'not a url'],
      ['SELFSERVICE_LOGIN_MAX_FAILURES_PER_IDENTIFIER', '-1'],
    ])('refuses %s=%s', (key, value) => {
      expect(keyOfError({ [key]: value })).toBe(key);
    });
  });
});
