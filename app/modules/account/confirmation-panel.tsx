import { useEffect, useState } from 'react'
import { useTranslation } from '#app/i18n/translation'
import { Form } from 'react-router'
import { useHydrated } from '#app/utils/use-hydrated'
import { SubmitButton } from '#app/components/forms'

export const RESEND_COOLDOWN_SECONDS = 60

/**
 * Without JavaScript nothing ticks, so the page names the time resending
 * works from. The server cannot know the reader's time zone, so it says
 * which one it uses; the reader's language decides the format.
 */
function formatClockTime(at: number, locale: string) {
	return new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', second: '2-digit', timeZone: 'UTC', timeZoneName: 'short' }).format(at)
}

/**
 * Waiting for the confirmation mail (docs/product.md §10.1): title, subtitle,
 * description, the address, then a countdown that ticks each second until
 * the resend button appears. Without JavaScript the panel says from what time
 * resending works and the button takes the text's place at that time through
 * a CSS animation; the server enforces the cooldown either way, and
 * `tooEarly` (its 429) says so with the seconds it answered.
 */
export function ConfirmationPanel({
	email,
	secondsLeft,
	tooEarly = false,
	action,
	FormComponent = Form,
}: {
	email: string
	secondsLeft: number
	tooEarly?: boolean
	action?: string
	FormComponent?: typeof Form
}) {
	const { t, i18n } = useTranslation()
	const hydrated = useHydrated()
	const [deadline] = useState(() => Date.now() + secondsLeft * 1000)
	const [left, setLeft] = useState(secondsLeft)
	useEffect(() => {
		if (left <= 0) return
		const timer = setInterval(() => setLeft(Math.max(0, Math.ceil((deadline - Date.now()) / 1000))), 1000)
		return () => clearInterval(timer)
	}, [deadline, left])
	const waiting = hydrated ? left > 0 : secondsLeft > 0
	const delay = !hydrated && waiting ? { animationDelay: `${secondsLeft}s` } : undefined
	return (
		<section className="confirmation-panel" aria-labelledby="confirm-title">
			<h2 id="confirm-title">{t('auth.email-confirm-title')}</h2>
			<p className="confirmation-panel__subtitle">{t('auth.email-confirm-subtitle')}</p>
			<p>{t('auth.email-confirm-description')}</p>
			<p className="confirmation-panel__email">
				<strong>{email}</strong>
			</p>
			{tooEarly && waiting ? (
				<p className="confirmation-panel__refused" role="alert">
					{t('auth.email-confirm-resend-too-early')}
				</p>
			) : null}
			<div className="confirmation-panel__resend">
				{hydrated && waiting ? (
					<p role="timer" aria-live="off">
						{t('auth.email-confirm-resend-not-available', { seconds: left })}
					</p>
				) : null}
				{!hydrated && waiting ? (
					<p className="reveal-hide" style={delay}>
						{/* Rendered on the server; the client's first render may differ by its clock and is replaced by the countdown. */}
						<time dateTime={new Date(deadline).toISOString()} suppressHydrationWarning>
							{t('auth.email-confirm-resend-from', { time: formatClockTime(deadline, i18n.language), seconds: secondsLeft })}
						</time>
					</p>
				) : null}
				{!hydrated || !waiting ? (
					<FormComponent method="post" action={action} className={delay ? 'reveal-show' : undefined} style={delay}>
						<input type="hidden" name="email" value={email} />
						<SubmitButton intent="resend" className="button">
							{t('auth.email-confirm-resend')}
						</SubmitButton>
					</FormComponent>
				) : null}
			</div>
		</section>
	)
}
