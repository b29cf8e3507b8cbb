/** Query strings of the flows and projects listings (FastAPI's bool and int parsing, fastapi-pagination bounds). */
import { z } from 'zod';
import { QueryBool, QueryInt } from './common.schema.js';
import { UuidString } from './flow.schema.js';

export const PageNumber = QueryInt.pipe(z.number().min(1));
export const PageSize = QueryInt.pipe(z.number().min(1).max(100));

export const FlowListQuery = z.object({
  remove_example_flows: QueryBool.default(false),
  components_only: QueryBool.default(false),
  get_all: QueryBool.default(true),
  header_flows: QueryBool.default(false),
  folder_id: UuidString.optional(),
  page: PageNumber.default(1),
  size: PageSize.default(50),
});

export const FolderIdQuery = z.object({ folder_id: UuidString.optional() });

/** Without both `page` and `size` the project comes with all its flows (Langflow's custom_params). */
export const ProjectReadQuery = z.object({
  page: PageNumber.optional(),
  size: PageSize.optional(),
  is_component: QueryBool.default(false),
  is_flow: QueryBool.default(false),
  search: z.string().default(''),
});
