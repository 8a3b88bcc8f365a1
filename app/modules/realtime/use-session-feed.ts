import { useCallback, useEffect, useReducer, useState } from 'react'
import type { DareView } from '#app/modules/dares/service.server'
import { SessionFeed, type LiveSessionState, type SessionView } from './session-feed'
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
 * updates since the last gap applied on top (SessionFeed). `subscribe` false (an ended session, the
 * server's render): the loader's data as it is. `own` takes the viewer's own
 * reading of dares from an action's answer; `reread` reads the page's data
 * again (an answer without it). The page renders it with its session's id as
 * `key`: another session is another feed.
 */
export function useSessionFeed(
	input: SessionFeedInput,
	who: string,
	subscribe: boolean,
): { view: SessionView; state: LiveState; own: (dares: DareView[], xid: number) => void; reread: () => void } {
	const [, redraw] = useReducer((n: number) => n + 1, 0)
	const refetch = useCatchUp()
	const [feed] = useState(() => new SessionFeed({ session: input.session, dares: input.dares }, input.covered))
	const [base, setBase] = useState(input.dares)
	const [readAgain, setReadAgain] = useState(false)
	if (base !== input.dares) {
		setBase(input.dares)
		setReadAgain(feed.rebase({ session: input.session, dares: input.dares }, input.covered) === 'refetch')
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
		(payload) => {
			const outcome = feed.receive(payload)
			if (outcome === 'refetch') refetch()
			if (outcome === 'applied') redraw()
		},
		() => {
			feed.rejoined()
			refetch()
		},
	)
	const own = useCallback(
		(dares: DareView[], xid: number) => {
			feed.own(dares, xid)
			redraw()
		},
		[feed],
	)
	return { view: feed.view, state, own, reread: refetch }
}

/** A loader's session and dares as the feed's starting state: the totals counted from the dares. */
export function sessionState(status: 'active' | 'ended', dares: DareView[]): LiveSessionState {
	const running = dares.filter((d) => d.status === 'open' || d.status === 'accepted' || d.status === 'voting')
	return { status, dareCount: dares.length, potTotal: running.reduce((sum, d) => sum + d.pot, 0) }
}
