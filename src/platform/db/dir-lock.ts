import fs from 'node:fs';
import path from 'node:path';

/** Thrown when another live process holds the data directory. */
class DataDirLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `Data directory ${dir} is in use by another Engram process (pid ${pid}). ` +
        'Stop that process, or point DATA_DIR at another directory. ' +
        'To run several processes on one store, use PostgreSQL (DATABASE_URL).',
    );
    this.name = 'DataDirLockedError';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Take `dir/engram.lock` exclusively (O_EXCL create). A lock left by a dead process
 * (crash, kill -9) is taken over. Returns the release function.
 */
export function acquireDirLock(dir: string): () => void {
  const file = path.join(dir, 'engram.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        try {
          if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
      process.on('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(fs.readFileSync(file, 'utf8').trim());
      if (pid && pid !== process.pid && alive(pid)) throw new DataDirLockedError(dir, pid);
      fs.rmSync(file, { force: true }); // stale: its owner is gone
    }
  }
  throw new Error(`Could not lock data directory ${dir}`);
}
