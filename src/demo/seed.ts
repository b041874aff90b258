import type { App } from '../app.ts';

export const DEMO_PASSWORD = 'medora-demo';
export const DEMO_ACCOUNTS = [
  { role: 'admin', email: 'admin@medora.test' },
  { role: 'doctor', email: 'doctor@medora.test' },
  { role: 'patient', email: 'patient@medora.test' },
] as const;

export async function isEmpty(app: App): Promise<boolean> {
  const [{ n }] = await app.db.query<{ n: number }>('select count(*)::int as n from users');
  return n === 0;
}

/**
 * Fills an empty database with a small, believable clinic through the same use cases users reach,
 * so the demo obeys every rule the product does.
 */
export async function seedDemo(app: App): Promise<void> {
  await app.auth.createAdmin({ name: 'Ada Admin', email: 'admin@medora.test', password: DEMO_PASSWORD });
  await app.auth.register({
    name: 'Paula Patient',
    email: 'patient@medora.test',
    password: DEMO_PASSWORD,
    phone: '+1 555 0100',
    birthdate: '1988-04-12',
    gender: 'female',
  });
}
