// Creates a new PGlite cluster in the folder argv[2] and exits (see pglite-init.ts). Plain
// JavaScript so that it runs the same from source and from the build, without a loader.
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';

const pg = await PGlite.create(process.argv[2], { extensions: { vector } });
await pg.close();
