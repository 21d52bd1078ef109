import { Body, Get, Module, Post, Query } from '@nestjs/common';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { DataSource } from 'typeorm';
import { AdminController } from '../../src/common/auth/controllers.js';

/** Routes that fail on purpose, one set per error family, to check the wire shapes end to end. */
class ProbeBody {
  @IsString()
  name!: string;

  @IsInt()
  @Min(1)
  @Max(10)
  count!: number;
}

function probeController(prefix: string) {
  @AdminController(`${prefix}/_probe`)
  class ProbeController {
    constructor(readonly dataSource: DataSource) {}

    @Get()
    ok(): { ok: true } {
      return { ok: true };
    }

    @Post()
    validate(@Body() body: ProbeBody): ProbeBody {
      return body;
    }

    @Get('slow')
    async slow(@Query('ms') ms = '1000'): Promise<{ waited: number }> {
      await new Promise((resolve) => setTimeout(resolve, Number(ms)));
      return { waited: Number(ms) };
    }

    /** Holds a pooled connection for `ms` inside PostgreSQL (statement timeouts, pool exhaustion). */
    @Get('sleep')
    async sleep(@Query('ms') ms = '1000'): Promise<{ slept: number }> {
      await this.dataSource.query('SELECT pg_sleep($1::double precision / 1000)', [Number(ms)]);
      return { slept: Number(ms) };
    }

    @Get('boom')
    boom(): never {
      throw new Error('secret internal detail');
    }

    @Get('database')
    async database(): Promise<unknown> {
      return this.dataSource.query('SELECT * FROM table_that_does_not_exist_with_secret_name');
    }
  }
  Object.defineProperty(ProbeController, 'name', { value: `Probe${prefix.replace(/\W/g, '')}Controller` });
  return ProbeController;
}

@Module({ controllers: [probeController('clients'), probeController('identities'), probeController('relation-tuples')] })
export class ProbeModule {}
