/*
 * Where model descriptions come from: the .om reader plugs in here.
 *
 * A reader turns a model file or image into an oa_model_info (and keeps
 * whatever it opened for the executor's load()). The .om reader registers
 * itself with oa_model_reader_register(); until one is registered,
 * aclmdlLoad* and aclmdlGetDescFrom{File,Mem} stop after their argument
 * checks with "<function> is not supported yet". Tests register fakes.
 */
#ifndef OA_ACL_MDL_MODEL_READER_H
#define OA_ACL_MDL_MODEL_READER_H

#include <stddef.h>

#include "acl_mdl/model_info.h"
#include "base/status.h"

/* A model given by path (data NULL) or by image (path NULL). */
typedef struct oa_model_source {
    const char *path;
    const void *data;
    size_t size;
} oa_model_source;

/* What a reader produces. */
typedef struct oa_model_image {
    oa_model_info *info;    /* a NEW info (refcount 1, not shared yet: the loader sets its route); header_dynamic filled */
    void *om;               /* the reader's opened model, passed to the executor (oa_model_load_args.om), which
                             * may take what it holds over (the .om reader, om_reader.h: an oa_om_loaded) */
    const void *bytes;      /* the whole image in host memory */
    size_t size;
    void *reader_state;     /* for close() */
} oa_model_image;

typedef struct oa_model_reader {
    /* Fills *img (info with one reference); on failure records the CANN code and leaves *img empty. */
    oa_status (*open)(const oa_model_source *src, oa_model_image *img);
    /* Releases what open() kept (not img->info: the caller releases its reference). */
    void (*close)(oa_model_image *img);
    /*
     * aclmdlQuerySize / aclmdlQuerySizeFromMem after the ACL checks: the work
     * (feature map) and weight sizes of the model, without loading it.
     * NULL: the query is not supported.
     */
    oa_status (*query_size)(const oa_model_source *src, size_t *work_size, size_t *weight_size);
} oa_model_reader;

/* Registers (NULL: removes) the reader. */
void oa_model_reader_register(const oa_model_reader *reader);
/* The reader (after the built-in plug-ins had their chance to register, see oa_mdl_builtins). */
const oa_model_reader *oa_model_reader_get(void);

/*
 * The built-in plug-ins (the .om reader, the executors) register through
 * one function, oa_mdl_register_builtins(), which libascendcl.so defines
 * (src/libascendcl/builtins.c) and acl_mdl references weakly: programs that
 * link the static parts alone (tests) have none and register fakes.
 * oa_mdl_builtins() calls it once; oa_model_reader_get() and
 * oa_model_executor_get() call oa_mdl_builtins() first.
 */
void oa_mdl_register_builtins(void) __attribute__((weak));
void oa_mdl_builtins(void);

#endif /* OA_ACL_MDL_MODEL_READER_H */
