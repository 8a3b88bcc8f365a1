import type { FormEvent } from 'react'
import { Form } from 'react-router'
import { useTranslation } from '#app/i18n/translation'
import type { Locale } from '#app/i18n/locales'
import { useHydrated } from '#app/utils/use-hydrated'
import { formatCountdown, formatEndTime, useSecondsLeft } from './countdown'
import type { DareView } from './service.server'

export type VoteBarProps = {
	/** The dare in `voting` (one per session at a time: docs/product.md §6.7). */
	dare: DareView
	sessionId: string
	lang: Locale
	/** The vote form's handler with JavaScript (the gated fetcher of the dares panel); absent: a plain post. */
	onSubmit?: (event: FormEvent<HTMLFormElement>) => void
}

/**
 * The running vote, always in reach on a phone (docs/product.md §15.9): a bar
 * fixed to the bottom of the screen (a floating one on a wide screen) with
 * the dare, the time left and Done / Not done. The buttons are the dare
 * card's vote form again (a plain post of the vote intent, so it works
 * without JavaScript; with it the panel's gated fetcher sends it, and a
 * visitor is asked to sign in first). The dares panel leaves it out for the
 * session's creator, who cannot vote. Without JavaScript nothing ticks: the
 * bar says when the vote ends instead. While it shows, the page keeps room
 * for it at the bottom (sessions.css), so it never covers the page's end.
 */
export function VoteBar({ dare, sessionId, lang, onSubmit }: VoteBarProps) {
	const { t } = useTranslation()
	return (
		<section className="vote-bar" aria-label={t('dares.vote-bar-label')}>
			{/* What the region's name says, for the eye: on a wide screen only. */}
			<span className="vote-bar__badge" aria-hidden="true">
				{t('dares.status-voting')}
			</span>
			<p className="vote-bar__dare">
				{/* The whole dare is on its card: the link goes there. */}
				<a href={`#dare-${dare.id}`} className="vote-bar__description">
					{dare.description}
				</a>
			</p>
			<VoteTime endsAt={dare.votingEndsAt!} lang={lang} />
			<Form method="post" className="vote-bar__vote" preventScrollReset onSubmit={onSubmit}>
				<input type="hidden" name="sessionId" value={sessionId} />
				<input type="hidden" name="dareId" value={dare.id} />
				<input type="hidden" name="intent" value="vote" />
				<button type="submit" name="vote" value="yes" className={`button${dare.myVote === true ? ' button--primary' : ''}`} aria-pressed={dare.myVote === true}>
					{t('dares.vote-yes')}
				</button>
				<button type="submit" name="vote" value="no" className={`button${dare.myVote === false ? ' button--primary' : ''}`} aria-pressed={dare.myVote === false}>
					{t('dares.vote-no')}
				</button>
			</Form>
		</section>
	)
}

/** The time left, ticking; before hydration (and without JavaScript) the time the vote ends. */
function VoteTime({ endsAt, lang }: { endsAt: string; lang: Locale }) {
	const { t } = useTranslation()
	const hydrated = useHydrated()
	const seconds = useSecondsLeft(endsAt)
	if (!hydrated) {
		return (
			<p className="vote-bar__time">
				{t('dares.vote-bar-ends-at', { time: formatEndTime(endsAt, lang) })}
			</p>
		)
	}
	return (
		<p className="vote-bar__time" role="timer" aria-live="off">
			{seconds > 0 ? t('dares.vote-bar-left', { time: formatCountdown(seconds) }) : t('dares.vote-ending')}
		</p>
	)
}
