import { useTranslation } from '#app/i18n/translation'
import { useLocation } from 'react-router'
import { LOCALES, switchLocalePath, type Locale } from '#app/i18n/locales'

/** The header's language menu: a disclosure of LanguageLinks, so it works without JavaScript. */
export function LanguageSwitcher({ locale }: { locale: Locale }) {
	const { t } = useTranslation()
	const current = LOCALES.find((l) => l.code === locale)
	return (
		<details className="language-switcher">
			{/* The name includes the visible language name (WCAG 2.5.3, label in name). */}
			<summary aria-label={`${t('nav.choose-language')}: ${current?.name ?? locale}`}>
				<svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
					<circle cx="12" cy="12" r="10" />
					<path d="M2 12h20M12 2a15.3 15.3 0 0 1 4 10 15.3 15.3 0 0 1-4 10 15.3 15.3 0 0 1-4-10 15.3 15.3 0 0 1 4-10z" />
				</svg>
				{current?.name}
			</summary>
			<LanguageLinks locale={locale} label={t('nav.language')} />
		</details>
	)
}

/**
 * The same page in each language as plain links, the current one marked: a
 * full document load lets the server set the language cookie and send the new
 * language's messages, with or without JavaScript. The header's switcher, the
 * phone menu and the settings page all list them.
 */
export function LanguageLinks({ locale, label, className, linkClassName }: { locale: Locale; label?: string; className?: string; linkClassName?: string }) {
	const location = useLocation()
	return (
		<ul className={className} aria-label={label}>
			{LOCALES.map((l) => (
				<li key={l.code}>
					<a
						className={linkClassName}
						href={switchLocalePath(location.pathname, l.code) + location.search + location.hash}
						hrefLang={l.code}
						lang={l.code}
						aria-current={l.code === locale ? 'true' : undefined}
					>
						{l.name}
					</a>
				</li>
			))}
		</ul>
	)
}
