import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/**
 * Shows properties only for their resource and operations, checked first: n8n counts a property as
 * shown once the first display key it checks holds an expression (say, Type), and these never do.
 * Operations already named stay: Create's fields are Create or Update's too.
 */
export const showOnlyFor = (resource: string, operation: string[], properties: INodeProperties[]) =>
	properties.map((property) => ({
		...property,
		displayOptions: {
			...property.displayOptions,
			show: { resource: [resource], operation, ...property.displayOptions?.show },
		},
	}));

/**
 * A field required when choice `key` is `value`, twice so that n8n's pre-run check and the editor
 * agree: the required copy hidden for other values (n8n reads no expression in `hide`), the
 * optional one shown while the choice is an expression (checked per item); `show` for both.
 */
export function requiredWhen(
	key: string,
	value: string,
	property: INodeProperties,
	show: IDisplayOptions['show'] = {},
): INodeProperties[] {
	return [
		{
			...property,
			required: true,
			displayOptions: { show, hide: { [key]: [{ _cnd: { not: value } }] } },
		},
		{
			...property,
			displayOptions: { show: { ...show, [key]: [value] }, hide: { [key]: [value] } },
		},
	];
}

/** A collection ("Add Field" and the like), its options by name as n8n lists them. */
export const collection = (
	displayName: string,
	name: string,
	placeholder: string,
	options: INodeProperties[],
): INodeProperties => ({
	displayName,
	name,
	type: 'collection',
	placeholder,
	default: {},
	options: options.sort((a, b) => a.displayName.localeCompare(b.displayName)),
});

/** A date and time, named after its display name (From, To, Since). */
export const dateProperty = (displayName: string, description: string): INodeProperties => ({
	displayName,
	name: displayName.toLowerCase(),
	type: 'dateTime',
	default: '',
	description,
});

/** A notice: its text is the display name. */
export const notice = (name: string, displayName: string): INodeProperties => ({
	displayName,
	name,
	type: 'notice',
	default: '',
});
