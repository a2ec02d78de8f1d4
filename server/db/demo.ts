// Placeholder: demo data is written by the foundation issue.
import type { Db } from './index.ts'

export async function seedDemoData(_db: Db) {}
