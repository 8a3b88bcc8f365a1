import { randomUUID } from 'node:crypto'
import { overlayKey, overlayPath } from '#app/modules/overlay/service.server'
import type { RouterContextProvider } from 'react-router'
import { servicesContext, viewerContext } from '#app/context.server'
import { readHoldNewDares, readSessionDares } from '#app/modules/dares/service.server'
import { moderationAction } from '#app/modules/dares/moderation.server'
import { MODERATION_INTENTS } from '#app/modules/dares/schemas'
import { readCovered, sessionTopic } from '#app/modules/realtime/broadcaster.server'
import { readOwnBalance } from '#app/modules/wallet/service.server'
import type { Queryable } from '#app/db/database.server'
import { queryAsViewer } from '#app/utils/db.server'
import type { StreamPlatform } from './schemas'
import { dareAction } from '#app/modules/dares/actions.server'
import { overlayAction } from '#app/modules/overlay/actions.server'
import { visitorShareHint } from '#app/modules/shared-pages/shared-render.server'
import { stopSessionAction } from './actions.server'
import { loadCreatorParts } from './creator-parts'
import { readRecaps } from './recap.server'
import {
	getChannelSession,
	getLinkedChannels,
	getSessionById,
	sessionPageData,
	type LinkedChannel,
	type SessionPageData,
	type SessionSummary,
} from './service.server'

export type SessionLookup = { id: string } | { platform: StreamPlatform; channel: string }

/**
 * Everything a session page shows, in one transaction as the viewer: the
 * session (by id, or a channel's live session, else its last one), the
 * creator's other sessions, its dares, and what the viewer may do there. Null when
 * there is no such session.
 */
export async function loadSessionPage(request: Request, context: Readonly<RouterContextProvider>, lookup: SessionLookup) {
	const viewer = context.get(viewerContext)
	const { env } = context.get(servicesContext)
	const url = new URL(request.url)
	// Set when a visitor's page may be shared (app/modules/shared-pages/shared-render.server.ts).
	const shared = visitorShareHint(context)
	const found = await queryAsViewer(context, async (tx) => {
		// Before the data: the live updates after it apply on top (session-feed.ts).
		const covered = await readCovered(tx)
		const session: SessionSummary | null =
			'id' in lookup ? await getSessionById(tx, lookup.id) : await getChannelSession(tx, lookup.platform, lookup.channel)
		if (!session) return null
		const page: SessionPageData = await sessionPageData(tx, session, viewer?.userId ?? null)
		const viewerChannels: LinkedChannel[] = viewer ? await getLinkedChannels(tx) : []
		const { rows } = viewer
			? await tx.query(`select 1 from public.sessions where creator_id = auth.uid() and status = 'active'`)
			: { rows: [] }
		const dares = await readSessionDares(tx, session.id)
		// Reading the dares may have resolved a vote and paid or refunded the
		// viewer; the root loader read the header's balance in parallel, maybe
		// before that. This one is read after, and the header shows it.
		const walletBalance = viewer ? await readOwnBalance(tx) : null
		const overlay = page.isCreator && session.status === 'active' ? await overlayKey(tx, session.id) : null
		// The creator's "hold every new dare for review" switch shows its state.
		const holdNewDares = page.isCreator && session.status === 'active' ? await readHoldNewDares(tx, session.id) : null
		// The creator's recap of this session once it has ended, and of their other ended sessions (docs/product.md §5.8).
		const recaps = page.isCreator ? await readRecaps(tx, [session, ...page.otherSessions].filter((s) => s.status === 'ended').map((s) => s.id)) : {}
		// A visitor's page may be shared until its next vote deadline: how far off that is, by the database's clock (which set it).
		// Asked only when this request's page may be shared (not for a data request, nor with cookies).
		const votes = shared ? dares.filter((d) => d.status === 'voting' && d.votingEndsAt) : []
		const untilDeadline = votes.length > 0 ? await msUntil(tx, Math.min(...votes.map((d) => Date.parse(d.votingEndsAt!)))) : null
		return { ...page, dares, covered, viewerChannels, viewerHasLiveSession: rows.length > 0, overlay, walletBalance, untilDeadline, holdNewDares, recaps }
	})
	if (!found) return null
	// A creator's page renders their parts (creator-parts.tsx): loaded before the render, which then does not wait for them.
	if (found.isCreator) await loadCreatorParts()
	const appUrl = new URL(env.APP_URL)
	const lang = url.pathname.split('/')[1] ?? 'en'
	const { overlay, untilDeadline, ...rest } = found
	// The idempotency key of the money forms this page renders (a boost's is
	// this plus the dare's id): a resubmitted or retried form reuses it, a
	// new page load mints a new one (a shared page gets a new one per response).
	const formKey = randomUUID()
	shared?.offer({ topic: sessionTopic(found.session.id), formKey, until: untilDeadline === null ? null : Date.now() + untilDeadline })
	return {
		...rest,
		overlayUrl: overlay ? new URL(overlayPath(lang, found.session.id, overlay), appUrl).toString() : null,
		signedIn: viewer !== null,
		viewerId: viewer?.userId ?? null,
		formKey,
		parentHost: appUrl.hostname,
		shareUrl: new URL(`/${lang}/${found.session.platform}/${encodeURIComponent(found.session.channel)}`, appUrl).toString(),
	}
}

/** Milliseconds from the database's now (the transaction's start, a little before this) to `at`. */
async function msUntil(tx: Queryable, at: number): Promise<number> {
	const { rows } = await tx.query<{ now: number }>('select extract(epoch from now()) * 1000 as now')
	return at - Number(rows[0]!.now)
}

/**
 * Every form of a session page, at /session/{id} and at /{platform}/{channel}
 * alike: the creator's stop and overlay forms, the dares panel's (create,
 * boost, vote, accept, reject, start voting; the creator's view also sends
 * those and extends or cancels the running vote) and its moderation forms
 * (approve, hide, ban, hold new dares, report). The body is read once, for
 * whichever form it is.
 */
export async function sessionPageAction(request: Request, context: Readonly<RouterContextProvider>) {
	const formData = await request.formData()
	const intent = formData.get('intent')
	if (intent === 'stop') return stopSessionAction(request, context, formData)
	if (intent === 'overlay-regenerate') return overlayAction(request, context, formData)
	if (typeof intent === 'string' && MODERATION_INTENTS.has(intent)) return moderationAction(request, context, formData)
	return dareAction(request, context, formData)
}
