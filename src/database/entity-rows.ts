import type pg from 'pg';
import type { DataSource, EntityTarget, ValueTransformer } from 'typeorm';

/**
 * One entity's table as named statements see it, derived from the entity's TypeORM metadata, so that
 * the entity stays the one description of the table (the drift test compares it with the migrations)
 * and no statement repeats its columns by hand. Built once per repository at boot; per row it only
 * walks the precomputed column array (no metadata lookups).
 */
export interface EntityRows<T> {
  /** Every column, quoted, in the entity's column order: the list of an INSERT, a SELECT or a RETURNING. */
  readonly columns: string;
  /** How many columns `columns` lists (the parameters of an insert). */
  readonly columnCount: number;
  /** One placeholder per column, numbered from `$first`: the VALUES of an INSERT of `columns`. */
  placeholders(first?: number): string;
  /** The parameters of an INSERT of `columns`, in their order; jsonb as JSON text (see runNamed). */
  values(entity: T): unknown[];
  /** A row of `columns` as pg returned it (timestamptz as Date, jsonb parsed) as the entity; may be passed unbound. */
  readonly toEntity: (row: pg.QueryResultRow) => T;
  /** Every column, quoted and qualified by a table alias (`i."id", i."schema_id", …`): a SELECT over a join. */
  qualified(alias: string): string;
  /** The row of table alias `alias` as one JSON object keyed by column (for json_agg or a scalar subquery); read it with fromJson. */
  jsonObject(alias: string): string;
  /** A row that travelled as JSON (jsonObject, row_to_json) as the entity: as toEntity, with timestamps parsed from their text. */
  readonly fromJson: (json: Readonly<Record<string, unknown>>) => T;
  /** `"a" = $first, "b" = $first+1, …`: the SET list of an UPDATE of `properties`, in their order. */
  assignments(properties: readonly (keyof T & string)[], first: number): string;
  /** The parameters of `assignments(properties)`, in their order (transformed, jsonb as JSON text). */
  valuesOf(entity: Partial<T>, properties: readonly (keyof T & string)[]): unknown[];
  /**
   * `SELECT <columns> FROM jsonb_to_recordset(<parameter>::jsonb) AS row(<column> <type>, …)`: many rows
   * in one parameter, the source of a batch INSERT of `columns`. Fill the parameter with JSON.stringify of
   * `recordsetRows`.
   */
  recordset(parameter: string): string;
  /** Entities as the rows `recordset` reads: keyed by column, transformed, jsonb as the value itself. */
  recordsetRows(entities: readonly T[]): Record<string, unknown>[];
}

interface ColumnRow {
  readonly databaseName: string;
  readonly propertyName: string;
  readonly json: boolean;
  /** pg parses these into Dates; JSON carries them as text. */
  readonly timestamp: boolean;
  readonly transformer: ValueTransformer | undefined;
  /** The column's type as PostgreSQL names it (a recordset's column definition). */
  readonly sqlType: string;
}

/**
 * The EntityRows of `entity`. Only plain columns are supported: a column TypeORM would convert
 * itself (simple-array, simple-json, simple-enum) or one only a relation carries would be read and
 * written wrong by a statement, so it fails at boot instead.
 */
export function entityRows<T extends object>(dataSource: DataSource, entity: EntityTarget<T> & { prototype: T }): EntityRows<T> {
  const metadata = dataSource.getMetadata(entity);
  const columns: ColumnRow[] = metadata.columns.map((column) => {
    if (typeof column.type === 'string' && column.type.startsWith('simple-')) {
      throw new Error(`${metadata.tableName}.${column.databaseName}: ${column.type} columns cannot be mapped by a statement`);
    }
    if (column.relationMetadata !== undefined && column.propertyName === column.relationMetadata.propertyName) {
      throw new Error(`${metadata.tableName}.${column.databaseName}: declare the join column as its own @Column`);
    }
    return {
      databaseName: column.databaseName,
      propertyName: column.propertyName,
      json: column.type === 'jsonb' || column.type === 'json',
      timestamp: typeof column.type === 'string' && TIMESTAMP_TYPES.has(column.type),
      // Several transformers are applied in order on write, in reverse on read (as TypeORM does).
      transformer: Array.isArray(column.transformer) ? chain(column.transformer) : column.transformer,
      sqlType: dataSource.driver.normalizeType(column),
    };
  });
  const byProperty = new Map(columns.map((column) => [column.propertyName, column]));
  const column = (property: string): ColumnRow => {
    const found = byProperty.get(property);
    if (found === undefined) throw new Error(`${metadata.tableName} has no column for ${property}`);
    return found;
  };
  const parameter = (row: ColumnRow, field: unknown): unknown => {
    const value = row.transformer === undefined ? field : row.transformer.to(field);
    return row.json && value !== null && value !== undefined ? JSON.stringify(value) : value;
  };
  const prototype = entity.prototype;
  return {
    columns: columns.map((column) => `"${column.databaseName}"`).join(', '),
    columnCount: columns.length,
    placeholders: (first = 1) => columns.map((_, index) => `$${first + index}`).join(', '),
    values(value) {
      const record = value as Record<string, unknown>;
      const values = new Array<unknown>(columns.length);
      for (let index = 0; index < columns.length; index++) values[index] = parameter(columns[index]!, record[columns[index]!.propertyName]);
      return values;
    },
    toEntity(row) {
      // The entity's prototype without running its constructor: only the columns become own
      // properties (a relation property stays absent, as TypeORM leaves it when not joined).
      const target = Object.create(prototype) as Record<string, unknown>;
      for (let index = 0; index < columns.length; index++) {
        const column = columns[index]!;
        const field = row[column.databaseName] as unknown;
        target[column.propertyName] = column.transformer === undefined ? field : column.transformer.from(field);
      }
      return target as T;
    },
    qualified: (alias) => columns.map((column) => `${alias}."${column.databaseName}"`).join(', '),
    jsonObject: (alias) =>
      `json_build_object(${columns.map((column) => `'${column.databaseName}', ${alias}."${column.databaseName}"`).join(', ')})`,
    assignments: (properties, first) =>
      properties.map((property, index) => `"${column(property).databaseName}" = $${first + index}`).join(', '),
    valuesOf(value, properties) {
      const record = value as Record<string, unknown>;
      return properties.map((property) => parameter(column(property), record[property]));
    },
    recordset: (parameterSql) =>
      `SELECT ${columns.map((row) => `"${row.databaseName}"`).join(', ')} FROM jsonb_to_recordset(${parameterSql}::jsonb) AS row(${columns
        .map((row) => `"${row.databaseName}" ${row.sqlType}`)
        .join(', ')})`,
    recordsetRows(entities) {
      return entities.map((value) => {
        const record = value as Record<string, unknown>;
        const row: Record<string, unknown> = {};
        for (const column of columns) {
          const field = record[column.propertyName];
          // jsonb stays a value inside the JSON array; timestamps become ISO text through JSON.stringify.
          row[column.databaseName] = column.transformer === undefined ? field : column.transformer.to(field);
        }
        return row;
      });
    },
    fromJson(json) {
      const target = Object.create(prototype) as Record<string, unknown>;
      for (let index = 0; index < columns.length; index++) {
        const column = columns[index]!;
        let field = json[column.databaseName];
        if (column.timestamp && typeof field === 'string') field = new Date(field);
        target[column.propertyName] = column.transformer === undefined ? field : column.transformer.from(field);
      }
      return target as T;
    },
  };
}

const TIMESTAMP_TYPES: ReadonlySet<string> = new Set([
  'timestamptz',
  'timestamp',
  'timestamp with time zone',
  'timestamp without time zone',
  'date',
]);

function chain(transformers: ValueTransformer[]): ValueTransformer {
  return {
    to: (value: unknown) => transformers.reduce((result, transformer) => transformer.to(result) as unknown, value),
    from: (value: unknown) => transformers.reduceRight((result, transformer) => transformer.from(result) as unknown, value),
  };
}
