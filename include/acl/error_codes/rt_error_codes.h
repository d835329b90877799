/*
 * openacl: runtime error codes (error_codes/rt_error_codes.h).
 *
 * Values returned by the aclrt* functions for failures detected inside the
 * runtime. Numbering: 107xxx caller errors, 207xxx resource/unsupported,
 * 507xxx internal. The guard name matches CANN's spelling so that programs
 * that mix headers do not see duplicate definitions.
 */
#ifndef __INC_EXTERNEL_RT_ERROR_CODES_H__
#define __INC_EXTERNEL_RT_ERROR_CODES_H__

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_RT_SUCCESS                                   0
#define ACL_ERROR_RT_PARAM_INVALID                       107000
#define ACL_ERROR_RT_INVALID_DEVICEID                    107001
#define ACL_ERROR_RT_CONTEXT_NULL                        107002
#define ACL_ERROR_RT_STREAM_CONTEXT                      107003
#define ACL_ERROR_RT_MODEL_CONTEXT                       107004
#define ACL_ERROR_RT_STREAM_MODEL                        107005
#define ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID             107006
#define ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL            107007
#define ACL_ERROR_RT_ADDR_UNALIGNED                      107008
#define ACL_ERROR_RT_FILE_OPEN                           107009
#define ACL_ERROR_RT_FILE_WRITE                          107010
#define ACL_ERROR_RT_STREAM_SUBSCRIBE                    107011
#define ACL_ERROR_RT_THREAD_SUBSCRIBE                    107012
#define ACL_ERROR_RT_GROUP_NOT_SET                       107013
#define ACL_ERROR_RT_GROUP_NOT_CREATE                    107014
#define ACL_ERROR_RT_STREAM_NO_CB_REG                    107015
#define ACL_ERROR_RT_INVALID_MEMORY_TYPE                 107016
#define ACL_ERROR_RT_INVALID_HANDLE                      107017
#define ACL_ERROR_RT_INVALID_MALLOC_TYPE                 107018
#define ACL_ERROR_RT_WAIT_TIMEOUT                        107019
#define ACL_ERROR_RT_TASK_TIMEOUT                        107020
#define ACL_ERROR_RT_SYSPARAMOPT_NOT_SET                 107021
#define ACL_ERROR_RT_DEVICE_TASK_ABORT                   107022
#define ACL_ERROR_RT_STREAM_ABORT                        107023
#define ACL_ERROR_RT_CAPTURE_DEPENDENCY                  107024
#define ACL_ERROR_RT_STREAM_UNJOINED                     107025
#define ACL_ERROR_RT_MODEL_CAPTURED                      107026
#define ACL_ERROR_RT_STREAM_CAPTURED                     107027
#define ACL_ERROR_RT_EVENT_CAPTURED                      107028
#define ACL_ERROR_RT_STREAM_NOT_CAPTURED                 107029
#define ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT            107030
#define ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT             107031
#define ACL_ERROR_STREAM_CAPTURE_CONFLICT                107032
#define ACL_ERROR_STREAM_TASK_GROUP_STATUS               107033
#define ACL_ERROR_STREAM_TASK_GROUP_INTR                 107034
#define ACL_ERROR_RT_TASK_ABORT_STOP                     107035
#define ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED            107036
#define ACL_ERROR_RT_MODEL_RUNNING                       107037
#define ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD         107038
#define ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY            107039
#define ACL_ERROR_RT_MODEL_UPDATE_FAILED                 107040
#define ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC            107041
#define ACL_ERROR_RT_SYMBOL_NOT_FOUND                    107042
#define ACL_ERROR_RT_INVALID_SYMBOL                      107043
#define ACL_ERROR_RT_INVALID_DEVICE_FUNCTION             107044
#define ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING           107045
#define ACL_ERROR_RT_FEATURE_NOT_SUPPORT                 207000
#define ACL_ERROR_RT_MEMORY_ALLOCATION                   207001
#define ACL_ERROR_RT_MEMORY_FREE                         207002
#define ACL_ERROR_RT_AICORE_OVER_FLOW                    207003
#define ACL_ERROR_RT_NO_DEVICE                           207004
#define ACL_ERROR_RT_RESOURCE_ALLOC_FAIL                 207005
#define ACL_ERROR_RT_NO_PERMISSION                       207006
#define ACL_ERROR_RT_NO_EVENT_RESOURCE                   207007
#define ACL_ERROR_RT_NO_STREAM_RESOURCE                  207008
#define ACL_ERROR_RT_NO_NOTIFY_RESOURCE                  207009
#define ACL_ERROR_RT_NO_MODEL_RESOURCE                   207010
#define ACL_ERROR_RT_NO_CDQ_RESOURCE                     207011
#define ACL_ERROR_RT_OVER_LIMIT                          207012
#define ACL_ERROR_RT_QUEUE_EMPTY                         207013
#define ACL_ERROR_RT_QUEUE_FULL                          207014
#define ACL_ERROR_RT_REPEATED_INIT                       207015
#define ACL_ERROR_RT_AIVEC_OVER_FLOW                     207016
#define ACL_ERROR_RT_OVER_FLOW                           207017
#define ACL_ERROR_RT_DEVICE_OOM                          207018
#define ACL_ERROR_RT_FEATURE_NOT_SUPPORT_UPDATE_OP       207019
#define ACL_ERROR_RT_TIMEOUT                             207020
#define ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED             207021
#define ACL_ERROR_RT_INTERNAL_ERROR                      507000
#define ACL_ERROR_RT_TS_ERROR                            507001
#define ACL_ERROR_RT_STREAM_TASK_FULL                    507002
#define ACL_ERROR_RT_STREAM_TASK_EMPTY                   507003
#define ACL_ERROR_RT_STREAM_NOT_COMPLETE                 507004
#define ACL_ERROR_RT_END_OF_SEQUENCE                     507005
#define ACL_ERROR_RT_EVENT_NOT_COMPLETE                  507006
#define ACL_ERROR_RT_CONTEXT_RELEASE_ERROR               507007
#define ACL_ERROR_RT_SOC_VERSION                         507008
#define ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT               507009
#define ACL_ERROR_RT_LOST_HEARTBEAT                      507010
#define ACL_ERROR_RT_MODEL_EXECUTE                       507011
#define ACL_ERROR_RT_REPORT_TIMEOUT                      507012
#define ACL_ERROR_RT_SYS_DMA                             507013
#define ACL_ERROR_RT_AICORE_TIMEOUT                      507014
#define ACL_ERROR_RT_AICORE_EXCEPTION                    507015
#define ACL_ERROR_RT_AICORE_TRAP_EXCEPTION               507016
#define ACL_ERROR_RT_AICPU_TIMEOUT                       507017
#define ACL_ERROR_RT_AICPU_EXCEPTION                     507018
#define ACL_ERROR_RT_AICPU_DATADUMP_RSP_ERR              507019
#define ACL_ERROR_RT_AICPU_MODEL_RSP_ERR                 507020
#define ACL_ERROR_RT_PROFILING_ERROR                     507021
#define ACL_ERROR_RT_IPC_ERROR                           507022
#define ACL_ERROR_RT_MODEL_ABORT_NORMAL                  507023
#define ACL_ERROR_RT_KERNEL_UNREGISTERING                507024
#define ACL_ERROR_RT_RINGBUFFER_NOT_INIT                 507025
#define ACL_ERROR_RT_RINGBUFFER_NO_DATA                  507026
#define ACL_ERROR_RT_KERNEL_LOOKUP                       507027
#define ACL_ERROR_RT_KERNEL_DUPLICATE                    507028
#define ACL_ERROR_RT_DEBUG_REGISTER_FAIL                 507029
#define ACL_ERROR_RT_DEBUG_UNREGISTER_FAIL               507030
#define ACL_ERROR_RT_LABEL_CONTEXT                       507031
#define ACL_ERROR_RT_PROGRAM_USE_OUT                     507032
#define ACL_ERROR_RT_DEV_SETUP_ERROR                     507033
#define ACL_ERROR_RT_VECTOR_CORE_TIMEOUT                 507034
#define ACL_ERROR_RT_VECTOR_CORE_EXCEPTION               507035
#define ACL_ERROR_RT_VECTOR_CORE_TRAP_EXCEPTION          507036
#define ACL_ERROR_RT_CDQ_BATCH_ABNORMAL                  507037
#define ACL_ERROR_RT_DIE_MODE_CHANGE_ERROR               507038
#define ACL_ERROR_RT_DIE_SET_ERROR                       507039
#define ACL_ERROR_RT_INVALID_DIEID                       507040
#define ACL_ERROR_RT_DIE_MODE_NOT_SET                    507041
#define ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW           507042
#define ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW          507043
#define ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW      507044
#define ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW     507045
#define ACL_ERROR_RT_STREAM_SYNC_TIMEOUT                 507046
#define ACL_ERROR_RT_EVENT_SYNC_TIMEOUT                  507047
#define ACL_ERROR_RT_FFTS_PLUS_TIMEOUT                   507048
#define ACL_ERROR_RT_FFTS_PLUS_EXCEPTION                 507049
#define ACL_ERROR_RT_FFTS_PLUS_TRAP_EXCEPTION            507050
#define ACL_ERROR_RT_SEND_MSG                            507051
#define ACL_ERROR_RT_COPY_DATA                           507052
#define ACL_ERROR_RT_DEVICE_MEM_ERROR                    507053
#define ACL_ERROR_RT_HBM_MULTI_BIT_ECC_ERROR             507054
#define ACL_ERROR_RT_SUSPECT_DEVICE_MEM_ERROR            507055
#define ACL_ERROR_RT_LINK_ERROR                          507056
#define ACL_ERROR_RT_SUSPECT_REMOTE_ERROR                507057
#define ACL_ERROR_RT_DRV_INTERNAL_ERROR                  507899
#define ACL_ERROR_RT_AICPU_INTERNAL_ERROR                507900
#define ACL_ERROR_RT_SOCKET_CLOSE                        507901
#define ACL_ERROR_RT_AICPU_INFO_LOAD_RSP_ERR             507902
#define ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED          507903
#define ACL_ERROR_RT_COMM_OP_RETRY_FAIL                  507904
#define ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT                  507905
#define ACL_ERROR_SNAPSHOT_LOCK_FAILED                   507906
#define ACL_ERROR_SNAPSHOT_UNLOCK_FAILED                 507907
#define ACL_ERROR_SNAPSHOT_BACKUP_FAILED                 507908
#define ACL_ERROR_SNAPSHOT_RESTORE_FAILED                507909
#define ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED         507910
#define ACL_ERROR_HOST_MEMORY_NOT_REGISTERED             507911
#define ACL_ERROR_SNAPSHOT_CALLBACK_FAILED               507912
#define ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED      507913
#define ACL_ERROR_RT_L3_PORT_ERROR                       507914
#define ACL_ERROR_RT_CCU_TIMEOUT                         507915
#define ACL_ERROR_RT_CCU_EXCEPTION                       507916

#ifdef __cplusplus
}
#endif

#endif /* __INC_EXTERNEL_RT_ERROR_CODES_H__ */
