/**
 * npm run operator:grant -- <email>
 * npm run operator:revoke -- <email>
 *
 * Makes an account an operator (a moderator who decides reports and appeals
 * at /{lang}/operator, docs/product.md §13.3), or no longer one. On the owner
 * connection, like creator:link: DATABASE_URL when set, else the PGlite
 * folder PGLITE_DATA_DIR (default .data/pglite), which must not be in use by
 * a running server. An operator who has set up two-factor authentication
 * must prove it to reach the console. Exits 1 with the reason on failure
 * (an unknown address among them).
 */
import { createDatabase, toAppError, type Database } from '../app/db/database.server'
import { setOperator } from '../app/modules/moderation/operator-grant.server'

function usage(): never {
	console.error('usage: npm run operator:grant -- <email>\n       npm run operator:revoke -- <email>')
	process.exit(2)
}

async function main(): Promise<void> {
	const [command, email, ...rest] = process.argv.slice(2)
	if ((command !== 'grant' && command !== 'revoke') || !email || rest.length > 0) usage()
	const url = process.env.DATABASE_URL || undefined
	const dataDir = process.env.PGLITE_DATA_DIR || '.data/pglite'

	let db: Database | undefined
	try {
		db = await createDatabase(url ? { url } : { dataDir })
		const grant = command === 'grant'
		const { email: found, changed } = await setOperator(db, email, grant)
		if (grant) console.log(changed ? `operator:grant: ${found} is now an operator` : `operator:grant: ${found} was already an operator`)
		else console.log(changed ? `operator:revoke: ${found} is no longer an operator` : `operator:revoke: ${found} was not an operator`)
	} catch (error) {
		const code = toAppError(error)?.code
		throw code ? new Error(code, { cause: error }) : error
	} finally {
		await db?.close()
	}
}

main().catch((error: unknown) => {
	console.error(`operator:${process.argv[2] === 'revoke' ? 'revoke' : 'grant'} failed: ${error instanceof Error ? error.message : String(error)}`)
	process.exitCode = 1
})
