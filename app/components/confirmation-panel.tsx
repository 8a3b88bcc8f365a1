import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { useHydrated } from '#app/utils/use-hydrated'
import { SubmitButton } from './forms'

export const RESEND_COOLDOWN_SECONDS = 60

/**
 * Waiting for the confirmation mail (spec section 4): title, subtitle,
 * description, the address, then a countdown that ticks each second until
 * the resend button appears. Without JavaScript the button appears after
 * the same delay through a CSS animation; the server enforces the cooldown
 * either way.
 */
export function ConfirmationPanel({
	email,
	secondsLeft,
	action,
	FormComponent = Form,
}: {
	email: string
	secondsLeft: number
	action?: string
	FormComponent?: typeof Form
}) {
	const { t } = useTranslation()
	const hydrated = useHydrated()
	const [deadline] = useState(() => Date.now() + secondsLeft * 1000)
	const [left, setLeft] = useState(secondsLeft)
	useEffect(() => {
		if (left <= 0) return
		const timer = setInterval(() => setLeft(Math.max(0, Math.ceil((deadline - Date.now()) / 1000))), 1000)
		return () => clearInterval(timer)
	}, [deadline, left])
	return (
		<section className="confirmation-panel" aria-labelledby="confirm-title">
			<h2 id="confirm-title">{t('auth.email-confirm-title')}</h2>
			<p className="confirmation-panel__subtitle">{t('auth.email-confirm-subtitle')}</p>
			<p>{t('auth.email-confirm-description')}</p>
			<p className="confirmation-panel__email">
				<strong>{email}</strong>
			</p>
			{hydrated && left > 0 ? (
				<p role="timer" aria-live="off">
					{t('auth.email-confirm-resend-not-available', { seconds: left })}
				</p>
			) : null}
			{!hydrated && secondsLeft > 0 ? (
				<p className="reveal-hide" style={{ animationDelay: `${secondsLeft}s` }}>
					{t('auth.email-confirm-resend-not-available', { seconds: secondsLeft })}
				</p>
			) : null}
			{!hydrated || left <= 0 ? (
				<FormComponent
					method="post"
					action={action}
					className={!hydrated && secondsLeft > 0 ? 'reveal-show' : undefined}
					style={!hydrated && secondsLeft > 0 ? { animationDelay: `${secondsLeft}s` } : undefined}
				>
					<input type="hidden" name="email" value={email} />
					<SubmitButton intent="resend" className="button">
						{t('auth.email-confirm-resend')}
					</SubmitButton>
				</FormComponent>
			) : null}
		</section>
	)
}
