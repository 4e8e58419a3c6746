/**
 * The SQL of the PostgreSQL store: its tables (created on first use, under an advisory lock so
 * several instances starting at once do not race each other's `CREATE`), and one statement per
 * store operation. Every conditional write is one statement (`INSERT … ON CONFLICT … WHERE`,
 * `UPDATE … WHERE n = $v`), atomic across instances under PostgreSQL's default isolation.
 *
 * Time is the database's (`statement_timestamp()`, in ms), so instances whose clocks differ still
 * agree on what has expired.
 */

/** A schema name the store accepts: an unquoted PostgreSQL identifier (letters, digits, `_`, at most 63). */
export const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** The database's time in ms, fixed for one statement. */
const NOW = `(extract(epoch from statement_timestamp()) * 1000)::bigint`;

/** A quoted identifier (the name was checked against {@link SCHEMA_NAME}). */
export const quote = (name: string) => `"${name}"`;

/** The tables, in `schema`. Members sort as bytes (`COLLATE "C"`), as every store's index does. */
export function schemaSql(schema: string): string[] {
  const s = quote(schema);
  return [
    `CREATE SCHEMA IF NOT EXISTS ${s}`,
    `CREATE TABLE IF NOT EXISTS ${s}.paydesk_kv (k text COLLATE "C" PRIMARY KEY, v text NOT NULL, n bigint NOT NULL, exp bigint NOT NULL)`,
    `CREATE INDEX IF NOT EXISTS paydesk_kv_exp ON ${s}.paydesk_kv (exp)`,
    `CREATE TABLE IF NOT EXISTS ${s}.paydesk_counters (k text COLLATE "C" PRIMARY KEY, c bigint NOT NULL, reset bigint NOT NULL)`,
    `CREATE INDEX IF NOT EXISTS paydesk_counters_reset ON ${s}.paydesk_counters (reset)`,
    `CREATE TABLE IF NOT EXISTS ${s}.paydesk_ix (name text COLLATE "C" NOT NULL, member text COLLATE "C" NOT NULL, ` +
      `score double precision NOT NULL, PRIMARY KEY (name, member))`,
    `CREATE INDEX IF NOT EXISTS paydesk_ix_score ON ${s}.paydesk_ix (name, score, member)`,
    `CREATE TABLE IF NOT EXISTS ${s}.paydesk_events (id bigserial PRIMARY KEY, channel text NOT NULL, message text NOT NULL, ` +
      `origin text NOT NULL, at bigint NOT NULL)`,
    `CREATE INDEX IF NOT EXISTS paydesk_events_at ON ${s}.paydesk_events (at)`,
  ];
}

/** The tables every instance needs (when all exist, first use creates nothing and takes no lock). */
export const TABLES = ['paydesk_kv', 'paydesk_counters', 'paydesk_ix', 'paydesk_events'] as const;

/** The store's statements for `schema`. */
export function statements(schema: string) {
  const kv = `${quote(schema)}.paydesk_kv`;
  const counters = `${quote(schema)}.paydesk_counters`;
  const ix = `${quote(schema)}.paydesk_ix`;
  const events = `${quote(schema)}.paydesk_events`;
  return {
    tablesPresent: `SELECT count(to_regclass($1 || '.' || t)) AS n FROM unnest($2::text[]) AS t`,
    get: `SELECT v, n FROM ${kv} WHERE k = $1 AND exp > ${NOW}`,
    create:
      `INSERT INTO ${kv} AS kv (k, v, n, exp) VALUES ($1, $2, 1, ${NOW} + $3) ` +
      `ON CONFLICT (k) DO UPDATE SET v = excluded.v, n = 1, exp = excluded.exp WHERE kv.exp <= ${NOW}`,
    replace: `UPDATE ${kv} SET v = $1, n = n + 1, exp = ${NOW} + $2 WHERE k = $3 AND n = $4 AND exp > ${NOW} RETURNING n`,
    set:
      `INSERT INTO ${kv} AS kv (k, v, n, exp) VALUES ($1, $2, 1, ${NOW} + $3) ON CONFLICT (k) DO UPDATE SET v = excluded.v, ` +
      `n = CASE WHEN kv.exp > ${NOW} THEN kv.n + 1 ELSE 1 END, exp = excluded.exp`,
    delete: `DELETE FROM ${kv} WHERE k = $1 AND exp > ${NOW}`,
    deleteVersion: `DELETE FROM ${kv} WHERE k = $1 AND exp > ${NOW} AND n = $2`,
    increment:
      `INSERT INTO ${counters} AS c (k, c, reset) VALUES ($1, 1, ${NOW} + $2) ON CONFLICT (k) DO UPDATE SET ` +
      `c = CASE WHEN c.reset <= ${NOW} THEN 1 ELSE c.c + 1 END, ` +
      `reset = CASE WHEN c.reset <= ${NOW} THEN excluded.reset ELSE c.reset END RETURNING c, reset - ${NOW} AS left_ms`,
    indexSet: `INSERT INTO ${ix} (name, member, score) VALUES ($1, $2, $3) ON CONFLICT (name, member) DO UPDATE SET score = excluded.score`,
    indexRemove: `DELETE FROM ${ix} WHERE name = $1 AND member = $2`,
    rangeAsc:
      `SELECT member, score FROM ${ix} WHERE name = $1 AND ($2::float8 IS NULL OR score >= $2) AND ($3::float8 IS NULL OR score <= $3) ` +
      `ORDER BY score ASC, member ASC LIMIT $4`,
    rangeDesc:
      `SELECT member, score FROM ${ix} WHERE name = $1 AND ($2::float8 IS NULL OR score >= $2) AND ($3::float8 IS NULL OR score <= $3) ` +
      `ORDER BY score DESC, member DESC LIMIT $4`,
    trim:
      `DELETE FROM ${ix} WHERE name = $1 AND member IN (SELECT member FROM ${ix} WHERE name = $1 ORDER BY score ASC, member ASC ` +
      `LIMIT greatest(0, (SELECT count(*) FROM ${ix} WHERE name = $1) - $2))`,
    /** A message too long for a NOTIFY payload is kept here and the notification carries its id. */
    keepEvent: `INSERT INTO ${events} (channel, message, origin, at) VALUES ($1, $2, $3, ${NOW}) RETURNING id`,
    readEvent: `SELECT channel, message FROM ${events} WHERE id = $1`,
    /** Poll mode: what other instances published since `id`. */
    poll: `SELECT id, channel, message, origin FROM ${events} WHERE id > $1 ORDER BY id ASC LIMIT 1000`,
    lastEvent: `SELECT coalesce(max(id), 0) AS id FROM ${events}`,
    notify: `SELECT pg_notify($1, $2)`,
    purge: [
      `DELETE FROM ${kv} WHERE exp <= ${NOW}`,
      `DELETE FROM ${counters} WHERE reset <= ${NOW}`,
      `DELETE FROM ${events} WHERE at <= ${NOW} - $1`,
    ],
  };
}

export type Statements = ReturnType<typeof statements>;
