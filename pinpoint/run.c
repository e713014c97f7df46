// SPDX-License-Identifier: MIT
/*
 * run.c - run the benchmark once in a build directory, with a time limit,
 * through the one process runner (core/process.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "pinpoint/abi.h"
#include "pinpoint/run.h"

static uint64_t hash_file(const char *path)
{
	uint64_t h = 1469598103934665603ull;
	unsigned char buf[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++)
			h = (h ^ buf[i]) * 1099511628211ull;
	close(fd);
	return h;
}

int pp_run(char *const argv[], const char *dir, const char *arming, const char *out_path,
	   const char *err_path, double timeout_s, volatile int *stop, struct pp_run_status *st)
{
	char *setting = NULL;
	const char *env[2] = {PP_ENV, NULL};
	struct pp_process p = {
	    .argv = argv,
	    .dir = dir,
	    .env = env,
	    .group = true,
	    .timeout_s = timeout_s,
	    .stop = stop,
	};
	int err;

	p.out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	p.err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (p.out < 0 || p.err < 0) {
		err = -errno;
		goto out;
	}
	if (arming) {
		if (asprintf(&setting, "%s=%s", PP_ENV, arming) < 0) {
			err = -ENOMEM;
			goto out;
		}
		env[0] = setting;
	}
	err = pp_process_run(&p, st);
	if (!err)
		st->output_hash = hash_file(out_path);
out:
	if (p.out >= 0)
		close(p.out);
	if (p.err >= 0)
		close(p.err);
	free(setting);
	return err;
}
