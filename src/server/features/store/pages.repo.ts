// What the store's pages need besides the store lists: the show a list or item is nested in.

export interface StoreShowRef {
  id: number;
  name: string;
  slugName: string;
}

export function findStoreShow(db: D1Database, id: number): Promise<StoreShowRef | null> {
  return db.prepare('SELECT id, name, slug_name AS slugName FROM shows WHERE id = ?').bind(id).first<StoreShowRef>();
}
