/*
 * The dataset accessors executors use (acl_mdl/model.h) instead of the
 * private aclmdlDataset layout: counts, buffers, descriptors, in-place
 * descriptor slots, and NULL / OA_E_PARAM past the end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "acl/acl.h"
#include "acl_mdl/model.h"

static void accessors_follow_the_dataset(void **state)
{
    (void)state;
    float a[4] = {0}, b[2] = {0};
    aclmdlDataset *ds = aclmdlCreateDataset();
    assert_non_null(ds);
    assert_int_equal(oa_mdl_dataset_count(ds), 0);
    assert_null(oa_mdl_dataset_buffer(ds, 0));
    assert_null(oa_mdl_dataset_desc_ref(ds, 0));

    aclDataBuffer *ba = aclCreateDataBuffer(a, sizeof a);
    aclDataBuffer *bb = aclCreateDataBuffer(b, sizeof b);
    assert_int_equal(aclmdlAddDatasetBuffer(ds, ba), ACL_SUCCESS);
    assert_int_equal(aclmdlAddDatasetBuffer(ds, bb), ACL_SUCCESS);
    assert_int_equal(oa_mdl_dataset_count(ds), aclmdlGetDatasetNumBuffers(ds));
    assert_int_equal(oa_mdl_dataset_count(ds), 2);
    assert_ptr_equal(oa_mdl_dataset_buffer(ds, 0), ba);
    assert_ptr_equal(oa_mdl_dataset_buffer(ds, 1), aclmdlGetDatasetBuffer(ds, 1));
    assert_null(oa_mdl_dataset_buffer(ds, 2));
    assert_null(oa_mdl_dataset_desc(ds, 0));
    assert_null(oa_mdl_dataset_desc(ds, 7));

    /* a copy is stored, readable through both the accessor and the public getter */
    const int64_t dims[2] = {2, 2};
    aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
    assert_int_equal(oa_mdl_dataset_set_desc(ds, 0, d), OA_OK);
    const aclTensorDesc *got = oa_mdl_dataset_desc(ds, 0);
    assert_non_null(got);
    assert_ptr_not_equal(got, d);
    assert_ptr_equal(got, aclmdlGetDatasetTensorDesc(ds, 0));
    assert_int_equal(aclGetTensorDescNumDims(got), 2);
    assert_int_equal(oa_mdl_dataset_set_desc(ds, 2, d), OA_E_PARAM);

    /* the in-place slot: an executor creates the descriptor, the dataset owns and frees it */
    aclTensorDesc **slot = oa_mdl_dataset_desc_ref(ds, 1);
    assert_non_null(slot);
    assert_null(*slot);
    *slot = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
    assert_ptr_equal(oa_mdl_dataset_desc(ds, 1), *slot);
    assert_null(oa_mdl_dataset_desc_ref(ds, 2));

    aclDestroyTensorDesc(d);
    assert_int_equal(aclmdlDestroyDataset(ds), ACL_SUCCESS);
    assert_int_equal(aclDestroyDataBuffer(ba), ACL_SUCCESS);
    assert_int_equal(aclDestroyDataBuffer(bb), ACL_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(accessors_follow_the_dataset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
