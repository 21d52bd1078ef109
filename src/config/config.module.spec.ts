import { Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { describe, expect, it } from 'vitest';
import type { SecretsConfig, TuplesConfig } from './app-config.js';
import { loadConfig } from './config.loader.js';
import { ConfigModule } from './config.module.js';
import { InjectConfig } from './inject-config.decorator.js';

@Injectable()
class NeedsTwoSections {
  constructor(
    @InjectConfig('tuples') readonly tuples: TuplesConfig,
    @InjectConfig('secrets') readonly secrets: SecretsConfig,
  ) {}
}

describe('ConfigModule', () => {
  it('injects each section of the configuration on its own', async () => {
    const config = loadConfig({ TUPLES_MAX_DEPTH: '7', SECRETS_SYSTEM: 'a-system-secret-0123456789' }, '1');
    const module = await Test.createTestingModule({ imports: [ConfigModule.forRoot(config)], providers: [NeedsTwoSections] }).compile();
    const consumer = module.get(NeedsTwoSections);
    expect(consumer.tuples).toBe(config.tuples);
    expect(consumer.tuples.maxDepth).toBe(7);
    expect(consumer.secrets).toBe(config.secrets);
  });
});
