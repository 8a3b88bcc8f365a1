import { useCallback, useEffect, useLayoutEffect, useReducer, useRef, useState } from 'react'
import type { DareView } from '#app/modules/dares/service.server'
import type { LiveSessionState, SessionFeed, SessionView } from './session-feed'
import { useCatchUp, useLiveTopic, type LiveState } from './use-live'

export interface SessionFeedInput {
	sessionId: string
	session: LiveSessionState
	dares: DareView[]
	/** The loader's reading (readCovered). */
	covered: number
}

/**
 * A session page's dares and state, live: the loader's data with the
 * session's updates applied as they come (session-feed.ts), without a
 * request. Only a gap or a rejoin reads the page's data again (once); newly
 * read data (that refetch, or an action's navigation) is taken with the
 * updates since the last gap applied on top (SessionFeed). `subscribe` false
 * (an ended session, the server's render): the loader's data as it is.
 *
 * The feed's code loads with the first update (or the viewer's first
 * answer): until then the loader's data is what the page shows, and a page
 * that is only looked at stays within its JavaScript budget (ADR 038).
 * Updates arriving meanwhile wait for it, in order. `own` takes the viewer's
 * own reading of dares from an action's answer; `reread` reads the page's
 * data again (an answer without it). The page renders it with its session's
 * id as `key`: another session is another feed.
 */
export function useSessionFeed(
	input: SessionFeedInput,
	who: string,
	subscribe: boolean,
): { view: SessionView; state: LiveState; own: (dares: DareView[], xid: number) => void; reread: () => void } {
	const [, redraw] = useReducer((n: number) => n + 1, 0)
	const refetch = useCatchUp()
	const [feed, setFeed] = useState<SessionFeed | null>(null)
	const latest = useRef({ input, refetch })
	useLayoutEffect(() => {
		latest.current = { input, refetch }
	})
	// The same functions from one render to the next: the page's rows are memoised.
	const reread = useCallback(() => latest.current.refetch(), [])
	/** Runs `use` on the feed, made once its code is in (from the data the page shows then). */
	const waiting = useRef<Array<(feed: SessionFeed) => void> | null>(null)
	const made = useRef<SessionFeed | null>(null)
	const withFeed = useCallback((use: (feed: SessionFeed) => void) => {
		if (made.current) return use(made.current)
		if (waiting.current) return void waiting.current.push(use)
		waiting.current = [use]
		void import('./session-feed').then(({ SessionFeed }) => {
			const { session, dares, covered } = latest.current.input
			const created = new SessionFeed({ session, dares }, covered)
			made.current = created
			for (const queued of waiting.current ?? []) queued(created)
			waiting.current = null
			setFeed(created)
		})
	}, [])
	const [base, setBase] = useState(input.dares)
	const [readAgain, setReadAgain] = useState(false)
	if (base !== input.dares) {
		setBase(input.dares)
		if (feed) setReadAgain(feed.rebase({ session: input.session, dares: input.dares }, input.covered) === 'refetch')
	}
	// A second gap while the data was being read: once more, now it is in.
	useEffect(() => {
		if (readAgain) refetch()
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [base, readAgain])
	const state = useLiveTopic(
		subscribe ? `session_updates_${input.sessionId}` : null,
		'update',
		who,
		(payload) =>
			withFeed((f) => {
				const outcome = f.receive(payload)
				if (outcome === 'refetch') reread()
				if (outcome === 'applied') redraw()
			}),
		() => {
			// Without a feed yet nothing was applied: the data read again is all there is.
			made.current?.rejoined()
			reread()
		},
	)
	const own = useCallback(
		(dares: DareView[], xid: number) =>
			withFeed((f) => {
				f.own(dares, xid)
				redraw()
			}),
		[withFeed],
	)
	return { view: feed ? feed.view : { session: input.session, dares: input.dares }, state, own, reread }
}

/** A loader's session and dares as the feed's starting state: the totals counted from the dares. */
export function sessionState(status: 'active' | 'ended', dares: DareView[]): LiveSessionState {
	const running = dares.filter((d) => d.status === 'open' || d.status === 'accepted' || d.status === 'voting')
	return { status, dareCount: dares.length, potTotal: running.reduce((sum, d) => sum + d.pot, 0) }
}
