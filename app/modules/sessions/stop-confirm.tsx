import { Form } from 'react-router'
import { useTranslation } from '#app/i18n/translation'
import { SubmitButton } from '#app/components/forms'
import type { Locale } from '#app/i18n/locales'
import type { DareView } from '#app/modules/dares/service.server'
import { formatCoins } from '#app/modules/shop/format'

/**
 * What stopping the session settles (docs/product.md §5.4): the dares that
 * expire (open, accepted, and held ones waiting for review) and the coins
 * in them, which go back to their boosters; a running vote ends as usual.
 */
export function stopSummary(dares: DareView[]) {
	const expiring = dares.filter((d) => d.status === 'open' || d.status === 'accepted' || d.status === 'held')
	return {
		count: expiring.length,
		coins: expiring.reduce((sum, d) => sum + d.pot, 0),
		voting: dares.some((d) => d.status === 'voting'),
	}
}

/**
 * "Stop the session…": a disclosure that says what stopping refunds and
 * holds the real button, so one stray tap on stream stops nothing. A
 * <details>, the same with and without JavaScript; the numbers follow the
 * live dares.
 */
export function StopConfirm({ dares, formKey, lang }: { dares: DareView[]; formKey: string; lang: Locale }) {
	const { t } = useTranslation()
	const { count, coins, voting } = stopSummary(dares)
	return (
		<details className="stop-confirm">
			<summary className="button button--ghost stop-confirm__ask">{t('sessions.stop-ask')}</summary>
			<Form method="post" className="stop-confirm__body stack">
				<p>
					{t('sessions.controls-text')} {count > 0 ? t('sessions.stop-refund-text') : t('sessions.stop-nothing-open')}
				</p>
				{count > 0 ? (
					<dl className="stop-confirm__numbers">
						<div>
							<dt>{t('sessions.stop-open-dares')}</dt>
							<dd>{count.toLocaleString(lang)}</dd>
						</div>
						<div>
							<dt>{t('sessions.stop-refund-coins')}</dt>
							<dd>{formatCoins(lang, coins)}</dd>
						</div>
					</dl>
				) : null}
				{voting ? <p className="muted">{t('sessions.stop-vote-runs')}</p> : null}
				<input type="hidden" name="key" value={`stop:${formKey}`} />
				<div>
					<SubmitButton intent="stop" className="button button--danger">
						{count > 0 ? t('sessions.stop-confirm') : t('sessions.stop-confirm-empty')}
					</SubmitButton>
				</div>
			</Form>
		</details>
	)
}
