import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
	{ ignores: ['build/**', '.react-router/**', '.data/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.ci/tmp/**', '.scratch*'] },
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		files: ['**/*.{ts,tsx,js}'],
		languageOptions: { globals: { ...globals.node, ...globals.browser } },
		plugins: { 'react-hooks': reactHooks },
		rules: {
			...reactHooks.configs.recommended.rules,
			'@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
			'no-restricted-syntax': [
				'error',
				{
					selector: "MemberExpression[object.name='process'][property.name='env']",
					message: 'Read settings through getEnv() (app/env.server.ts), parsed once at boot.',
				},
			],
		},
	},
	{
		// Routes and components use the account module and the platform's
		// interfaces, never a platform's internals (docs/decisions/011-account-module.md).
		files: ['app/routes/**', 'app/components/**', 'app/modules/**', 'app/root.tsx'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							group: ['#app/platform/local/*', '#app/platform/supabase/*', '**/platform/local/*', '**/platform/supabase/*'],
							message: 'Use platform.accounts (app/modules/account) and app/platform/types; the platforms are internals.',
						},
					],
				},
			],
		},
	},
	{
		files: ['app/platform/local/**'],
		rules: {
			'no-restricted-imports': [
				'error',
				{ patterns: [{ group: ['#app/platform/supabase/*', '**/platform/supabase/*', '../supabase/*'], message: 'The two platforms never import each other.' }] },
			],
		},
	},
	{
		files: ['app/platform/supabase/**'],
		rules: {
			'no-restricted-imports': [
				'error',
				{ patterns: [{ group: ['#app/platform/local/*', '**/platform/local/*', '../local/*'], message: 'The two platforms never import each other.' }] },
			],
		},
	},
	{
		// Boot code, scripts and tests may read the raw environment.
		files: ['server.js', 'app/env.server.ts', 'app/boot.server.ts', 'scripts/**', 'tests/**', 'bench/**', 'playwright.config.ts', '*.config.ts'],
		rules: { 'no-restricted-syntax': 'off' },
	},
)
