/** The /api/v1/all map: every component's frontend node, grouped by category and keyed by component type. */
import type { ComponentDefinition, FieldMap } from '../components/contract.js';
import type { ComponentCatalog } from '../../protocol/meta.schema.js';
import { frontendNode } from './frontend-node.js';

/**
 * Aliases are left out: they exist so that old flows still load, while the editor's palette should offer each
 * component once, under its current type.
 */
export function componentCatalog(components: readonly ComponentDefinition<FieldMap>[]): ComponentCatalog {
  const catalog: ComponentCatalog = {};
  for (const component of components) {
    (catalog[component.category] ??= {})[component.type] = frontendNode(component);
  }
  return catalog;
}
