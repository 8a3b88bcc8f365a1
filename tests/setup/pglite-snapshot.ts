import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import type { TestProject } from 'vitest/node'
import { createPGliteDatabase } from '#app/db/database.server'
import { migrate } from '#app/db/migrate.server'

declare module 'vitest' {
	export interface ProvidedContext {
		/** A PGlite data directory (tar) with every migration applied, or null when none was made. */
		pgliteSnapshot: string | null
	}
}

/**
 * Migrates one PGlite database for the whole unit run and keeps its data
 * directory in a file: a test file's PGlite starts from it (~0.4 s) instead of
 * running initdb and every migration (~2 s), in each of the ~40 files that
 * use one (tests/support/databases.ts). Made from supabase/migrations at the
 * start of every run, and again before each rerun in watch mode, so it is
 * never older than they are.
 */
export default async function setup(project: TestProject) {
	if (process.argv.slice(2).includes('list')) {
		project.provide('pgliteSnapshot', null)
		return
	}
	const file = path.join(tmpdir(), `dareboost-pglite-${process.pid}.tar`)
	await writeSnapshot(file)
	project.onTestsRerun(() => writeSnapshot(file))
	project.provide('pgliteSnapshot', file)
	return () => rm(file, { force: true })
}

async function writeSnapshot(file: string): Promise<void> {
	const dataDir = await mkdtemp(path.join(tmpdir(), 'dareboost-pglite-'))
	try {
		const db = await createPGliteDatabase(dataDir)
		try {
			await migrate(db, { platform: 'local' })
		} finally {
			await db.close()
		}
		const pglite = await PGlite.create({ dataDir })
		try {
			await writeFile(file, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()))
		} finally {
			await pglite.close()
		}
	} finally {
		await rm(dataDir, { recursive: true, force: true })
	}
}
