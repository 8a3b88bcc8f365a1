/**
 * npm run creator:link -- <email> <platform> <channel>
 * npm run creator:link -- <email> <platform> --unlink
 *
 * The operator's way to link a creator's channel by hand (docs/product.md
 * §10.9), e.g. a YouTube or Kick channel where that
 * platform's sign-in is not configured. It runs the same SQL rules as the
 * app's own linking (app_private.set_channel: a channel belongs to one
 * creator at most, a live channel is not taken away), on the owner
 * connection: DATABASE_URL when set, else the PGlite folder PGLITE_DATA_DIR
 * (default .data/pglite), which must not be in use by a running server.
 * Exits 1 with the reason on failure.
 */
import { createDatabase, toAppError, type Database } from '../app/db/database.server'

const PLATFORMS = ['twitch', 'youtube', 'kick']

function usage(): never {
	console.error('usage: npm run creator:link -- <email> <twitch|youtube|kick> <channel|--unlink>')
	process.exit(2)
}

async function main(): Promise<void> {
	const [email, platform, channelArg] = process.argv.slice(2)
	if (!email || !platform || !channelArg || !PLATFORMS.includes(platform)) usage()
	const channel = channelArg === '--unlink' ? null : channelArg
	const url = process.env.DATABASE_URL || undefined
	const dataDir = process.env.PGLITE_DATA_DIR || '.data/pglite'

	let db: Database | undefined
	try {
		db = await createDatabase(url ? { url } : { dataDir })
		const { rows } = await db.query<{ id: string }>('select id from auth.users where lower(email) = lower($1)', [email])
		const user = rows[0]
		if (!user) throw new Error(`no account with the e-mail address ${email}`)
		await db.query('select app_private.set_channel($1, $2, $3)', [user.id, platform, channel])
		console.log(channel ? `creator:link: ${email} is the creator of ${platform}/${channel}` : `creator:link: ${email} has no ${platform} channel any more`)
	} catch (error) {
		const code = toAppError(error)?.code
		throw code ? new Error(code, { cause: error }) : error
	} finally {
		await db?.close()
	}
}

main().catch((error: unknown) => {
	console.error(`creator:link failed: ${error instanceof Error ? error.message : String(error)}`)
	process.exitCode = 1
})
