// Payment types and coin packages.

export interface PaymentTypeRow {
  id: number;
  name: string;
  is_phonecall: number;
}

export interface ProductRow {
  id: number;
  payment_type_id: number;
  name: string;
  currency: string;
  amount_cents: number;
  coins: number;
  is_default: number;
}

/** A package with what checkout needs of its payment type. */
export interface CheckoutProductRow extends ProductRow {
  type_name: string;
  provider: string;
  is_phonecall: number;
}

export function findCheckoutProduct(db: D1Database, paymentTypeId: number, productId: number) {
  return db
    .prepare(
      `SELECT p.*, t.name AS type_name, t.provider, t.is_phonecall FROM products p JOIN payment_types t ON t.id = p.payment_type_id
       WHERE p.id = ? AND p.payment_type_id = ?`,
    )
    .bind(productId, paymentTypeId)
    .first<CheckoutProductRow>();
}

export function findPaymentType(db: D1Database, id: number) {
  return db.prepare('SELECT id, name, is_phonecall FROM payment_types WHERE id = ?').bind(id).first<PaymentTypeRow>();
}

/** Every payment type in order with its packages; `phoneOnly` for visitors, who may pay by phone only. */
export async function listCatalog(db: D1Database, phoneOnly = false): Promise<{ types: PaymentTypeRow[]; products: ProductRow[] }> {
  const [types, products] = await db.batch<PaymentTypeRow | ProductRow>([
    db.prepare(
      phoneOnly
        ? 'SELECT id, name, is_phonecall FROM payment_types WHERE is_phonecall = 1 ORDER BY position'
        : 'SELECT id, name, is_phonecall FROM payment_types ORDER BY position',
    ),
    db.prepare('SELECT id, payment_type_id, name, currency, amount_cents, coins, is_default FROM products ORDER BY payment_type_id, position'),
  ]);
  return { types: types.results as PaymentTypeRow[], products: products.results as ProductRow[] };
}
