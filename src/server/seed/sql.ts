import type { CategoryRow, GalleryPictureRow, GalleryRow, ShowCategoryRow, ShowRow, ShowTagRow, TagRow, VideoPartRow, VideoRow, VideoTagRow } from '../lib/tables';
import { type DemoData, type SqlValue } from './rows';

// ---------------------------------------------------------------------------------------------
// SQL output

type Columns<T> = readonly (keyof T & string)[];
// Fails to compile when a row interface gains a column that the INSERT would silently drop.
type Complete<T, C extends Columns<T>> = [Exclude<keyof T, C[number]>] extends [never] ? C : never;

export function columns<T>() {
  return <const C extends Columns<T>>(cols: Complete<T, C>): C => cols;
}

export const TABLES = [
  { key: 'categories', table: 'categories', columns: columns<CategoryRow>()(['id', 'slug', 'slug_description', 'name_en', 'name_de', 'is_search', 'position']) },
  { key: 'tags', table: 'tags', columns: columns<TagRow>()(['id', 'slug', 'name_en', 'name_de']) },
  {
    key: 'shows',
    table: 'shows',
    columns: columns<ShowRow>()([
      'id', 'universal_id', 'contentprovider_id', 'name', 'slug_name', 'age', 'languages', 'city', 'city_en', 'country', 'lat', 'lon',
      'price_per_minute', 'price_factor_exclusive', 'flag_free', 'flag_exclusive', 'features', 'rating', 'rating_count', 'preview_count',
      'palette', 'ribbon', 'slogan_en', 'slogan_de', 'description_en', 'description_de', 'online', 'online_since',
      'sort_rank', 'created_at',
    ]),
  },
  { key: 'showCategories', table: 'show_categories', columns: columns<ShowCategoryRow>()(['category_id', 'show_id']) },
  { key: 'showTags', table: 'show_tags', columns: columns<ShowTagRow>()(['tag_id', 'show_id']) },
  {
    key: 'videos',
    table: 'videos',
    columns: columns<VideoRow>()(['id', 'ccid', 'show_id', 'title_en', 'title_de', 'duration_s', 'parts', 'price', 'rating', 'palette', 'rating_votes', 'created_at']),
  },
  {
    key: 'galleries',
    table: 'galleries',
    columns: columns<GalleryRow>()(['id', 'show_id', 'title_en', 'title_de', 'picture_count', 'price', 'rating', 'palette', 'rating_votes', 'created_at']),
  },
  { key: 'videoParts', table: 'video_parts', columns: columns<VideoPartRow>()(['video_id', 'part', 'media_key', 'preview_key', 'mime', 'duration_s', 'size']) },
  { key: 'videoTags', table: 'video_tags', columns: columns<VideoTagRow>()(['video_id', 'tag_id']) },
  {
    key: 'galleryPictures',
    table: 'gallery_pictures',
    columns: columns<GalleryPictureRow>()(['gallery_id', 'idx', 'full_key', 'thumb_key', 'mime', 'width', 'height']),
  },
] as const satisfies readonly { key: keyof DemoData; table: string; columns: readonly string[] }[];

function rowValues(row: object, cols: readonly string[]): SqlValue[] {
  const record = row as Record<string, unknown>;
  return cols.map((c) => {
    const v = record[c];
    if (v === null || v === undefined) return null;
    if (typeof v === 'string' || typeof v === 'number') return v;
    throw new Error(`demo data: unsupported value in column ${c}`);
  });
}

// D1 binds at most 100 parameters per statement.
export const MAX_BOUND_PARAMS = 100;

/** Parameterised multi-row INSERTs (as many rows as 100 parameters hold), in foreign-key order, for `db.batch()`. */
export function seedStatements(data: DemoData): { sql: string; params: SqlValue[] }[] {
  const out: { sql: string; params: SqlValue[] }[] = [];
  for (const spec of TABLES) {
    const tuple = `(${spec.columns.map(() => '?').join(', ')})`;
    const per = Math.max(1, Math.floor(MAX_BOUND_PARAMS / spec.columns.length));
    const rows: readonly object[] = data[spec.key];
    for (let i = 0; i < rows.length; i += per) {
      const chunk = rows.slice(i, i + per);
      const sql = `INSERT INTO ${spec.table} (${spec.columns.join(', ')}) VALUES ${chunk.map(() => tuple).join(', ')}`;
      out.push({ sql, params: chunk.flatMap((row) => rowValues(row, spec.columns)) });
    }
  }
  return out;
}

export function sqlLiteral(value: SqlValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('demo data: non-finite number');
    return String(value);
  }
  return `'${value.replace(/'/g, "''")}'`;
}

export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

// D1 caps a statement at 100 KB; stay well below so escaping surprises cannot tip it over.
const MAX_STATEMENT_BYTES = 80_000;
const MAX_ROWS_PER_STATEMENT = 400;

/** The same rows as a plain SQL script for `wrangler d1 execute --file` (no transaction: wrangler rejects BEGIN/COMMIT). */
export function toSqlScript(data: DemoData, only?: readonly (keyof DemoData)[]): string {
  const statements: string[] = [];
  for (const spec of TABLES) {
    if (only && !only.includes(spec.key)) continue;
    const head = `INSERT INTO ${spec.table} (${spec.columns.join(', ')}) VALUES\n`;
    let rows: string[] = [];
    let bytes = utf8Length(head);
    const flush = () => {
      if (rows.length) statements.push(`${head}${rows.join(',\n')};`);
      rows = [];
      bytes = utf8Length(head);
    };
    for (const row of data[spec.key]) {
      const tuple = `(${rowValues(row, spec.columns).map(sqlLiteral).join(', ')})`;
      const size = utf8Length(tuple) + 2;
      if (rows.length && (bytes + size > MAX_STATEMENT_BYTES || rows.length >= MAX_ROWS_PER_STATEMENT)) flush();
      rows.push(tuple);
      bytes += size;
    }
    flush();
  }
  return `-- Generated by src/server/seed/ (generator.ts, sql.ts); do not edit by hand.\n${statements.join('\n')}\n`;
}
