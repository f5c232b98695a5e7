import type { INodeProperties } from 'n8n-workflow';

import { codeFilterOptions } from '../../shared/codeFilters';

/** The filters the code list takes (Get Many, and Get Scan Report's codes by filters). */
export const listFiltersProperty: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: codeFilterOptions('list'),
};
