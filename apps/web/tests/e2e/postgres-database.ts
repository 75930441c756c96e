import pg from 'pg';

/** The machine's PostgreSQL server (trust auth), where browser tests make databases of their own. */
export const POSTGRES_URL =
  process.env.E2E_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh PostgreSQL database named after `purpose`; dropped by `drop()`. */
export async function createPostgresDatabase(
  purpose: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `showroom_e2e_${purpose}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // WITH (FORCE): a stopped (or killed) api's pool may still be closing its connections.
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
