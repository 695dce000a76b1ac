// kernelDisplayName on real kernel names: the demangled names below are what nvcc 12 / CUDA 13 emit for the
// kernels models write (anonymous namespace, nested namespaces, templates, lambdas, operator pointers,
// extern "C"), what CUB, PyTorch and cuBLAS/CUTLASS launch, read from cubins with readelf and c++filt.
#include "core/eval/kernelname.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace kforge;

class TestKernelName : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void displayName_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("shown");

        // The profile lines of issue 18 cut this one at the wrong parenthesis ("int)").
        QTest::newRow("anonymous namespace")
            << u"(anonymous namespace)::colsum_vec4(float const*, float*, int, int)"_s << u"colsum_vec4"_s;
        QTest::newRow("anonymous namespace, float4")
            << u"(anonymous namespace)::colsum_vec4(float const*, float4 const*, float4*, int)"_s << u"colsum_vec4"_s;
        QTest::newRow("free") << u"rowscale4(float const*, float4 const*, float4*, long, long)"_s << u"rowscale4"_s;
        QTest::newRow("extern C") << u"scale_kernel"_s << u"scale_kernel"_s;
        QTest::newRow("extern C, cuBLAS")
            << u"sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"_s
            << u"sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"_s;
        QTest::newRow("mangled") << u"_Z9rowscale4PKfPK6float4PS1_ll"_s << u"rowscale4"_s;
        QTest::newRow("mangled, anonymous namespace")
            << u"_ZN36_GLOBAL__N__e3f2f7a7_4_k_cu_c4c3742511colsum_vec4EPKfPfii"_s << u"colsum_vec4"_s;
        QTest::newRow("nested namespaces, template")
            << u"void kf::detail::gemm_tiled<128, float>(float const*, float*, int)"_s << u"gemm_tiled<128, float>"_s;
        QTest::newRow("template, return type")
            << u"void scale_rows<float>(float const*, float*, int)"_s << u"scale_rows<float>"_s;
        QTest::newRow("template argument in a namespace")
            << u"void apply<kf::detail::Functor>(float*, int, kf::detail::Functor)"_s << u"apply<Functor>"_s;
        QTest::newRow("nested template, member class")
            << u"void step_kernel<outer::inner::Tile<float>::Step<8> >(outer::inner::Tile<float>::Step<8>, float*)"_s
            << u"step_kernel<Step<8> >"_s;
        QTest::newRow("lambda") << u"void apply<run(float*, int)::{lambda(float)#1}>(float*, int, run(float*, int)::{lambda(float)#1})"_s
                                << u"apply<{lambda(float)#1}>"_s;
        QTest::newRow("lambda, anonymous namespace")
            << u"void (anonymous namespace)::each<run(float*)::{lambda(int)#1}>(float*, run(float*)::{lambda(int)#1})"_s
            << u"each<{lambda(int)#1}>"_s;
        QTest::newRow("extended lambda wrapper")
            << u"void apply<__nv_dl_wrapper_t<__nv_dl_tag<void (*)(float*, int), &(run(float*, int)), 1u>> >(float*, int, __nv_dl_wrapper_t<__nv_dl_tag<void (*)(float*, int), &(run(float*, int)), 1u>>)"_s
            << u"apply<…>"_s;
        QTest::newRow("operator()") << u"void call_op<&(kf::Functor::operator()(float) const)>(float*)"_s
                                    << u"call_op<&(Functor::operator()(float) const)>"_s;
        QTest::newRow("operator<") << u"void call_op<&(kf::Cmp::operator<(kf::Cmp const&) const)>(float*)"_s
                                   << u"call_op<&(Cmp::operator<(Cmp const&) const)>"_s;
        QTest::newRow("operator<<=") << u"void call_op<&kf::Cmp::operator<<=>(float*)"_s << u"call_op<&Cmp::operator<<=>"_s;
        QTest::newRow("PyTorch elementwise")
            << u"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)"_s
            << u"vectorized_elementwise_kernel<4, FillFunctor<float>, Array<char*, 1> >"_s;
        QTest::newRow("cutlass") << u"void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>(cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4::Params)"_s
                                 << u"Kernel2<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>"_s;
        QTest::newRow("cub, no parameters")
            << u"void cub::CUB_300001_SM_900::detail::EmptyKernel<void>()"_s << u"EmptyKernel<void>"_s;
        // Qualifiers gone it is still 78 characters: the arguments give way.
        QTest::newRow("cub reduce") << u"void cub::CUB_300001_SM_900::detail::reduce::DeviceReduceKernel<cub::CUB_300001_SM_900::detail::reduce::policy_hub<float, unsigned int, cuda::std::__4::plus<void> >::Policy1000, float*, unsigned int, cuda::std::__4::plus<void>, float, cuda::std::__4::__identity>(float*, float*, unsigned int, cub::CUB_300001_SM_900::GridEvenShare<unsigned int>, cuda::std::__4::plus<void>, cuda::std::__4::__identity)"_s
                                    << u"DeviceReduceKernel<…>"_s;
        QTest::newRow("cub single tile") << u"void cub::CUB_300001_SM_900::detail::reduce::DeviceReduceSingleTileKernel<cub::CUB_300001_SM_900::detail::reduce::policy_hub<float, unsigned int, cuda::std::__4::plus<void> >::Policy1000, float*, float*, int, cuda::std::__4::plus<void>, float, float, cuda::std::__4::__identity>(float*, float*, int, cuda::std::__4::plus<void>, float, float, cuda::std::__4::__identity)"_s
                                         << u"DeviceReduceSingleTileKernel<…>"_s;
        QTest::newRow("member with qualifiers") << u"Tile<float>::run(float*) const"_s << u"run"_s;
        QTest::newRow("blank") << u"  "_s << QString();
        QTest::newRow("not demanglable") << u"_Znot_a_name"_s << u"_Znot_a_name"_s;
    }

    void displayName()
    {
        QFETCH(QString, name);
        QFETCH(QString, shown);
        QCOMPARE(kernelDisplayName(name), shown);
    }

    void shorterLimit()
    {
        const QString gemm = u"void kf::detail::gemm_tiled<128, float>(float const*, float*, int)"_s;
        QCOMPARE(kernelDisplayName(gemm, 22), u"gemm_tiled<128, float>"_s);
        QCOMPARE(kernelDisplayName(gemm, 21), u"gemm_tiled<…>"_s);
    }
};

QTEST_GUILESS_MAIN(TestKernelName)
#include "tst_kernelname.moc"
