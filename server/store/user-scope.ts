import { type Expression, type SqlBool, sql } from 'kysely';

/** Every user's rows: what an admin's reads and actions see. */
export const EVERY_USER = Symbol('every user');

/** Whose rows a store call sees: one user's (by id), or everyone's. */
export type UserScope = string | typeof EVERY_USER;

/** The condition that keeps a query to the scope's rows; `column` names the user column when a join makes it ambiguous. */
export const userIs = (scope: UserScope, column: Expression<unknown> = sql.ref('user_id')): Expression<SqlBool> =>
  scope === EVERY_USER ? sql<SqlBool>`TRUE` : sql<SqlBool>`${column} = ${scope}`;
