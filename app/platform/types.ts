import type { JwtClaims } from '#app/db/as-user.server'

/**
 * What differs between the two platforms sits behind these three small
 * interfaces (docs/decisions/003-two-platforms.md). Routes only ever see
 * them, so filling in a platform never touches a route.
 */

/** Who is making the request, as the database should see them. */
export interface Viewer {
	claims: JwtClaims
	userId: string
	email: string | null
}

export interface AuthAdapter {
	/**
	 * Resolve the request's viewer. `headers` carries cookies to set on the
	 * response (a refreshed session, for example); they must be sent even when
	 * the route fails.
	 */
	getViewer(request: Request): Promise<{ viewer: Viewer | null; headers: Headers }>
}

export interface Mail {
	to: string
	subject: string
	text: string
	html: string
	/** What the mail is for (confirmation, reset, ...): shown in the development mailbox. */
	kind: string
}

export interface MailAdapter {
	readonly transport: 'smtp' | 'dev-mailbox' | 'supabase'
	send(mail: Mail): Promise<void>
}

export interface RealtimeAdapter {
	/** What the browser's realtime client connects to. */
	clientConfig(origin: string): { url: string; apiKey: string }
}

export interface Platform {
	readonly name: 'local' | 'supabase'
	readonly auth: AuthAdapter
	readonly mail: MailAdapter
	readonly realtime: RealtimeAdapter
}
