import { Entity, Index, PrimaryColumn } from 'typeorm';

const PK = 'PK_relation_tuples';

/**
 * One relation tuple. The primary key is the check's index: a check reads, per BFS level, the rows of
 * a few (namespace_id, object, relation) prefixes, and within a prefix either one exact `subject_key`
 * or the range of subject sets (`s:` .. `s;`), so every hop is an index probe or a short range scan.
 * Text columns use the "C" collation: byte order makes that range exact and comparisons cheap.
 *
 * `namespace_id` is the configured id, so a namespace can be renamed. `subject_key` encodes the
 * subject: `i:<id>` for a subject id, `s:<namespace id>:<object>#<relation>` for a subject set (see
 * storage/subject-key.ts). The hot path reads this table with raw SQL (TuplesRepository); the entity
 * exists for the schema and the migration check.
 */
@Entity({ name: 'relation_tuples' })
@Index('IDX_relation_tuples_subject', ['namespaceId', 'subjectKey'])
export class RelationTupleEntity {
  @PrimaryColumn({ name: 'namespace_id', type: 'integer', primaryKeyConstraintName: PK })
  namespaceId!: number;

  @PrimaryColumn({ type: 'varchar', length: 64, collation: 'C', primaryKeyConstraintName: PK })
  object!: string;

  @PrimaryColumn({ type: 'varchar', length: 64, collation: 'C', primaryKeyConstraintName: PK })
  relation!: string;

  @PrimaryColumn({ name: 'subject_key', type: 'varchar', length: 258, collation: 'C', primaryKeyConstraintName: PK })
  subjectKey!: string;
}
