# attention: build, test and package.
#
#   make          build the MEX functions in src/ (use the package in place)
#   make setup    install missing system packages with apt-get (Debian):
#                 everything make check uses (and Chromium, for the browser
#                 tests, and Jupyter with the Octave kernel, for the
#                 notebook's test, when they can be installed)
#   make setup-demo  only what make demo needs (Octave, its development
#                 files, OpenBLAS): no figure tools, no browser
#   make demo     setup-demo, build, make doc-cache (and make docs when
#                 makeinfo is there), run doc/attention_demo.m
#   make doc-cache  lookfor's index of the functions in place (a doc-cache
#                 in src/ and each topic folder of inst/: lookfor attention
#                 answers at once instead of reading every help text)
#   make docs     the reference manual from the functions' help texts:
#                 doc.info beside them (src/ and inst/'s topic folders:
#                 what doc NAME opens)
#                 and one HTML page per function in doc/html/ (needs
#                 makeinfo, Debian's texinfo; make dist ships both)
#   make check    setup, build, run every test (C, Octave, doctest, and an
#                 installed copy); last line "N passed, N failed, N skipped"
#   make bench    run the benchmarks tests/bench/bench_*: the C core, the
#                 kernels and the model against plain Octave, and the
#                 package against PyTorch (issue 13's table; the PyTorch
#                 side when Debian's python3-torch is installed)
#   make notebook  doc/tutorial.ipynb, the tutorial as a Jupyter notebook
#                 (Octave kernel), from doc/tutorial.md (tools/tutorial_notebook.m)
#   make train-demo  train seed 003's families on generated tasks (doc/train_demo.m)
#   make dist     attention-VERSION.tar.gz for pkg install: the student
#                 package (assignments without solutions or planted mistakes)
#   make dist-instructor  attention-VERSION-instructor.tar.gz: the same with
#                 the answer keys and the graders' self-tests
#   make grade GRADER=file SUBMISSIONS=dir/ [GRADES=dir]  grade a class:
#                 each student's folder in its own sandboxed process;
#                 grades.csv, feedback and results.json in GRADES/
#   make clean    remove build products
#   make sanitize C core unit tests built with ASan and UBSan
#   make memcheck C core unit tests and the MEX functions under valgrind
#   make fuzz     FUZZ_CASES cases of bad input to every MEX function and
#                 FUZZ_CASES mutated grading-channel messages, then
#                 FUZZ_MODEL_CASES damaged model files and bad calls of the
#                 public model functions (an outcome table by function)
#   make soak     the same, SOAK_SEEDS times 10000 and 3000 cases
#   make leakcheck  LEAK_CALLS kernel calls, VmRSS before and after; then
#                 40 calls with 32 MiB results (made by Octave, filled in place)
#   make longseq  n = m = 4096, h = 8 through the kernels, peak memory

PACKAGE := attention
VERSION := $(shell sed -n 's/^Version:[[:space:]]*//p' DESCRIPTION)
DISTNAME := $(PACKAGE)-$(VERSION)
TARBALL := $(DISTNAME).tar.gz

OCTAVE ?= octave-cli
OCTAVE_FLAGS = --no-history --no-init-file --no-gui
RUN_OCTAVE = $(OCTAVE) $(OCTAVE_FLAGS)
# The package in place, as README.md tells users to set it up.
INPLACE_PATH = addpath ("$(CURDIR)/src", "$(CURDIR)/inst");

# Debian packages: Octave with mkoctfile and an optimised BLAS (all that
# make demo needs); the figures (make train-demo, the tests) need gnuplot,
# its fonts and ghostscript; make check also the doctests and the grading
# sandbox, and the reference manual (make docs, behind make dist) makeinfo
# and the info reader that doc NAME runs.
DEMO_APT_PACKAGES = octave octave-dev libopenblas0-pthread
FIGURE_APT_PACKAGES = $(DEMO_APT_PACKAGES) gnuplot-nox fonts-freefont-otf ghostscript
APT_PACKAGES = $(FIGURE_APT_PACKAGES) octave-doctest bubblewrap texinfo info
# Optional, for make check only: the browser that attn_explore's pages are
# tested in (tests/test_explore_browser.m), and Jupyter's nbconvert with
# the Octave kernel that run the tutorial's notebook (tests/test_notebook.m;
# installed without the packages they only recommend: about 6 MB to
# download, 32 MB on disk, where the recommended ones would add some 500 MB).
# Where they cannot be installed, make setup goes on and those tests are
# counted as skipped.
OPTIONAL_APT_PACKAGES = chromium
NOTEBOOK_APT_PACKAGES = jupyter-nbconvert python3-octave-kernel

# What pkg install needs: metadata, the C sources with their help stubs,
# the Octave functions and the documentation; in a git checkout only the
# files git tracks (no stray files), otherwise every file there.
DIST_TREES = src inst doc
# (The topic folders' private links are copied as links: cp -P.)
DIST_ALL = $(sort $(filter-out %.o %.mex %-tst %doc-cache,$(shell { git ls-files $(DIST_TREES); } \
    2>/dev/null || find $(DIST_TREES) -type f -o -type l)))
# The answer keys (solutions and tables of planted mistakes of the
# assignments) and the graders' self-tests go to instructors only.
ANSWER_KEYS = $(shell printf '%s\n' $(DIST_ALL) \
    | grep -E '^doc/assignments/[^/]+/(solution/|mistakes.txt$$)')
GRADER_TESTS = tests/test_assignments.m tests/test_grade_train_step.m \
  tests/test_grade_class.m $(wildcard tests/test_grade_hostile*.m)
DIST_FILES = DESCRIPTION COPYING INDEX NEWS post_install.m \
  $(filter-out $(ANSWER_KEYS),$(DIST_ALL)) inst/doc.info
INSTRUCTOR_NAME := $(DISTNAME)-instructor
INSTRUCTOR_TARBALL := $(INSTRUCTOR_NAME).tar.gz
GRADES ?= grades
GRADE_OPTIONS ?= "time_limit", 60, "total_time", 600

.PHONY: all setup setup-demo setup-figures check demo doc-cache docs bench dist dist-instructor grade clean train-demo notebook
.PHONY: sanitize memcheck fuzz soak leakcheck longseq

all:
	@command -v mkoctfile >/dev/null 2>&1 || { echo "mkoctfile not found:" \
	  "run 'make setup' (Debian) or install Octave's development files" >&2; \
	  exit 1; }
	$(MAKE) -C src

# Installs the Debian packages of the target (SETUP_PACKAGES) when Octave's
# mkoctfile is missing, or when Octave came from Debian and some of the
# others are missing; then the optional ones (SETUP_OPTIONAL, and
# SETUP_NOTEBOOK without what they only recommend), going on without them
# when they cannot be installed.  Uses sudo only when not root.
setup: SETUP_PACKAGES = $(APT_PACKAGES)
setup: SETUP_OPTIONAL = $(OPTIONAL_APT_PACKAGES)
setup: SETUP_NOTEBOOK = $(NOTEBOOK_APT_PACKAGES)
setup-demo: SETUP_PACKAGES = $(DEMO_APT_PACKAGES)
setup-demo: SETUP_OPTIONAL =
setup-demo: SETUP_NOTEBOOK =
setup-figures: SETUP_PACKAGES = $(FIGURE_APT_PACKAGES)
setup-figures: SETUP_OPTIONAL =
setup-figures: SETUP_NOTEBOOK =
setup setup-demo setup-figures:
	@missing_of () { for p in "$$@"; do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" \
	      || printf ' %s' $$p; \
	  done; }; \
	apt_install () { \
	  if [ "$$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi; \
	  echo "Installing:$$*"; \
	  $$sudo apt-get update \
	  && $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y "$$@"; }; \
	dpkg=false; command -v dpkg-query >/dev/null 2>&1 && dpkg=true; \
	missing=""; \
	if $$dpkg && { ! command -v mkoctfile >/dev/null 2>&1 \
	               || dpkg-query -W -f='$${Status}' octave 2>/dev/null \
	                  | grep -q "ok installed"; }; then \
	  missing=$$(missing_of $(SETUP_PACKAGES)); \
	fi; \
	if [ -n "$$missing" ]; then apt_install $$missing || exit 1; fi; \
	command -v mkoctfile >/dev/null 2>&1 || { \
	  echo "mkoctfile not found: install Octave and its development files" >&2; \
	  exit 1; }; \
	optional=""; \
	if $$dpkg && [ -n "$(SETUP_OPTIONAL)" ]; then optional=$$(missing_of $(SETUP_OPTIONAL)); fi; \
	if [ -n "$$optional" ]; then \
	  apt_install $$optional \
	    || echo "could not install$$optional: the browser tests will be skipped" >&2; \
	fi; \
	notebook=""; \
	if $$dpkg && [ -n "$(SETUP_NOTEBOOK)" ]; then notebook=$$(missing_of $(SETUP_NOTEBOOK)); fi; \
	if [ -n "$$notebook" ]; then \
	  apt_install --no-install-recommends $$notebook \
	    || echo "could not install$$notebook: the notebook test will be skipped" >&2; \
	fi

check: setup
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory dist
	tests/check.sh $(TARBALL)

demo: setup-demo
	@$(MAKE) --no-print-directory all doc-cache
	@if command -v makeinfo >/dev/null 2>&1; then $(MAKE) --no-print-directory docs; \
	else echo "makeinfo not found: no reference manual (help NAME works; doc NAME shows Octave's manual)"; fi
	$(RUN_OCTAVE) --eval '$(INPLACE_PATH) run ("$(CURDIR)/doc/attention_demo.m")'

# Train seed 003's families on the generated corpora (about 25 minutes on
# two cores); figures and summary.txt in train-demo-output/ (ATTN_BUDGET:
# seconds of training per translation model and for the language model).
train-demo: setup-figures
	@$(MAKE) --no-print-directory all
	ATTN_OUT="$${ATTN_OUT:-$(CURDIR)/train-demo-output}" \
	  $(RUN_OCTAVE) --eval '$(INPLACE_PATH) run ("$(CURDIR)/doc/train_demo.m")'

# The tutorial as a notebook: remade when the tutorial or the generator
# changes; commit it with them (tests/test_notebook.m checks that it is
# the generator's output).
notebook: doc/tutorial.ipynb
doc/tutorial.ipynb: doc/tutorial.md tools/tutorial_notebook.m
	$(RUN_OCTAVE) --eval 'addpath ("$(CURDIR)/tools"); tutorial_notebook ("$(CURDIR)/doc/tutorial.md", "$(CURDIR)/$@");'

# The folders of the public functions: src/ and inst/'s topic folders.
TOPICS = $(filter-out inst/private,$(patsubst %/,%,$(wildcard inst/*/)))
FUNCTION_DIRS = src $(TOPICS)

# lookfor's index of each folder, remade when a help text there changes.
DOC_CACHES = $(addsuffix /doc-cache,$(FUNCTION_DIRS))
doc-cache: $(DOC_CACHES)
.SECONDEXPANSION:
$(DOC_CACHES): $$(wildcard $$(@D)/*.m)
	$(RUN_OCTAVE) --eval '$(INPLACE_PATH) doc_cache_create ("$(CURDIR)/$@", "$(CURDIR)/$(@D)");'

# The reference manual: one Texinfo document made from the help texts
# (tools/doc_texinfo.m), then doc.info where doc looks for it (the folder
# of the function's file: inst/doc.info, copied into src/ and each topic
# folder in place; post_install.m copies it the same way when installed)
# and the HTML pages (tools/doc_html.init names each page after its
# function).
DOC_TEXI = build/doc/attention.texi
DOC_INFO_COPIES = $(addsuffix /doc.info,$(FUNCTION_DIRS))
docs: inst/doc.info $(DOC_INFO_COPIES) doc/html/index.html
$(DOC_TEXI): INDEX DESCRIPTION tools/doc_texinfo.m $(wildcard inst/*/*.m src/*.m)
	@command -v makeinfo >/dev/null 2>&1 || { echo "makeinfo not found:" \
	  "run 'make setup' (Debian: texinfo)" >&2; exit 1; }
	@mkdir -p $(@D)
	$(RUN_OCTAVE) --eval '$(INPLACE_PATH) addpath ("$(CURDIR)/tools"); doc_texinfo ("$(CURDIR)", "$(CURDIR)/$@");'
inst/doc.info: $(DOC_TEXI)
	makeinfo --no-split -o $@ $<
$(DOC_INFO_COPIES): inst/doc.info
	cp $< $@
doc/html/index.html: $(DOC_TEXI) tools/doc_html.init
	rm -rf doc/html
	makeinfo --html -c FORMAT_MENU=menu --init-file tools/doc_html.init -o doc/html $<

# The C core timed alone, linked against the BLAS Octave uses.
CORE_SOURCES = src/attention_core.c src/attention_core_real.inc \
  src/attention_core.h src/attention_core_real.h
tests/bench/bench_core: tests/bench/bench_core.c $(CORE_SOURCES)
	$(CC) -std=c99 -O3 -Wall -Wextra -Isrc -o $@ tests/bench/bench_core.c \
	  src/attention_core.c $$(mkoctfile -p BLAS_LIBS) -lm

# dgemm calls of the core counted and timed (its own dgemm_ passes them on).
tests/bench/bench_calls: tests/bench/bench_calls.c $(CORE_SOURCES)
	$(CC) -std=c99 -O3 -Wall -Wextra -Isrc -o $@ tests/bench/bench_calls.c \
	  src/attention_core.c -Wl,--no-as-needed $$(mkoctfile -p BLAS_LIBS) \
	  -Wl,--as-needed -ldl -lm

# Benchmarks also see the plain-Octave reference implementation.
bench: all tests/bench/bench_core tests/bench/bench_calls
	@echo "=== tests/bench/bench_core.c"; tests/bench/bench_core
	@echo "=== tests/bench/bench_calls.c"; tests/bench/bench_calls
	@status=0; \
	for f in tests/bench/bench_*.m; do \
	  [ -e "$$f" ] || continue; \
	  echo "=== $$f"; \
	  $(RUN_OCTAVE) --eval '$(INPLACE_PATH) addpath (genpath ("$(CURDIR)/tests/reference")); run ("$(CURDIR)/'"$$f"'")' \
	    || status=1; \
	done; \
	exit $$status

# Hardening.  Fuzzing runs with an 8 GB address-space limit so that a case
# that allocated far too much fails instead of swapping.
FUZZ_CASES ?= 20000
FUZZ_MODEL_CASES ?= 2000
SOAK_SEEDS ?= 30
LEAK_CALLS ?= 1000000
LEAK_LIMIT_MIB ?= 2
# leakcheck_large: half of one leaked 32 MiB result (in the quarter of its
# calls that grew least)
LEAK_LARGE_LIMIT_MIB ?= 16
STRESS_PATH = $(INPLACE_PATH) addpath ("$(CURDIR)/tests/fuzz", "$(CURDIR)/tests/stress");

sanitize:
	$(MAKE) -C tests/core sanitize

memcheck: all
	$(MAKE) -C tests/core memcheck
	tests/valgrind/memcheck.sh

fuzz: all
	ulimit -v 8000000; $(RUN_OCTAVE) --eval '$(STRESS_PATH) exit (run_fuzz ($(FUZZ_CASES), 1, $(FUZZ_MODEL_CASES)) > 0)'

soak: all
	ulimit -v 8000000; $(RUN_OCTAVE) --eval '$(STRESS_PATH) exit (run_fuzz (10000, 100 + (1:$(SOAK_SEEDS)), 3000) > 0)'

leakcheck: all
	$(RUN_OCTAVE) --eval '$(STRESS_PATH) exit (leakcheck ($(LEAK_CALLS)) > $(LEAK_LIMIT_MIB))'
	$(RUN_OCTAVE) --eval '$(STRESS_PATH) exit (leakcheck_large () > $(LEAK_LARGE_LIMIT_MIB))'

longseq: all
	$(RUN_OCTAVE) --eval '$(STRESS_PATH) longseq ();'

dist: docs
	rm -rf $(DISTNAME) $(TARBALL)
	mkdir $(DISTNAME)
	@cp -P --parents $(DIST_FILES) $(DISTNAME)
	@cp -r doc/html $(DISTNAME)/doc/
	tar --sort=name --owner=0 --group=0 --numeric-owner -czf $(TARBALL) $(DISTNAME)
	rm -rf $(DISTNAME)
	@echo "made $(TARBALL)"

dist-instructor: docs
	rm -rf $(INSTRUCTOR_NAME) $(INSTRUCTOR_TARBALL)
	mkdir $(INSTRUCTOR_NAME)
	@cp -P --parents $(DIST_FILES) $(ANSWER_KEYS) $(GRADER_TESTS) $(INSTRUCTOR_NAME)
	@cp -r doc/html $(INSTRUCTOR_NAME)/doc/
	tar --sort=name --owner=0 --group=0 --numeric-owner -czf $(INSTRUCTOR_TARBALL) $(INSTRUCTOR_NAME)
	rm -rf $(INSTRUCTOR_NAME)
	@echo "made $(INSTRUCTOR_TARBALL)"

# Grades every folder of SUBMISSIONS with GRADER (attn_grade_class).
grade: all
	@if [ -z "$(GRADER)" ] || [ -z "$(SUBMISSIONS)" ]; then \
	  echo "usage: make grade GRADER=grade_x.m SUBMISSIONS=dir/ [GRADES=dir]" >&2; \
	  exit 2; \
	fi
	@# SIGTERM becomes Ctrl-C: the run stops cleanly and writes the grades so far
	@sh -c '$(RUN_OCTAVE) --eval '"'"'$(INPLACE_PATH) attn_grade_class ("$(GRADER)", "$(SUBMISSIONS)", "$(GRADES)", $(GRADE_OPTIONS));'"'"' & \
	  child=$$!; trap "kill -INT $$child" TERM; wait $$child; status=$$?; \
	  if kill -0 $$child 2>/dev/null; then wait $$child; status=$$?; fi; exit $$status'

clean:
	$(MAKE) -C src clean
	if [ -f tests/core/Makefile ]; then $(MAKE) -C tests/core clean || true; fi
	rm -rf $(DISTNAME) $(TARBALL) $(INSTRUCTOR_NAME) $(INSTRUCTOR_TARBALL)
	rm -f tests/bench/bench_core tests/bench/bench_calls $(DOC_CACHES)
	rm -rf build/doc doc/html inst/doc.info $(DOC_INFO_COPIES)
