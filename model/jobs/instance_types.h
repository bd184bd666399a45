/* instance_types: GPUs and vCPUs of the ml.* training instance types, as
 * AWS publishes them, for turning CloudWatch's per-host figures (0-100 x
 * GPUs, 0-100 x vCPUs) into percent. A constant table; a type not in it
 * is unknown and its figures stay raw (the views mark them). */
#ifndef SMTOP_INSTANCE_TYPES_H
#define SMTOP_INSTANCE_TYPES_H

/* 1 and the counts for a known type ("ml.p4d.24xlarge"; accelerators
 * that report no GPUUtilization, such as Trainium, count 0 GPUs), else 0. */
int instance_types_lookup(const char *type, int *gpus, int *vcpus);

#endif
