// SPDX-License-Identifier: MIT
/*
 * cxxname_test.c - C++ names for people (core/cxxname.h, core/names.h).
 *
 * Real demangled names (clang++-14 and g++ 11 objects through c++filt, the
 * mangled name above each) with their short forms, without and with the
 * parameter list; odd and broken names, which must come back as they are;
 * and a report's names settled: overloads keep their parameters, and where
 * those read the same too, the whole name.
 *
 *     test-driver-cxxname [short|odd|space|deep|names]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cxxname.h"
#include "core/names.h"
#include "core/table.h"

#include "check.h"

struct cxx_case {
	const char *dem, *shown, *params;
};

static const struct cxx_case cases[] = {
    /* the task's example as it was written (the real one is below) */
    {"std::priority_queue<std::pair<float, unsigned int>, std::vector<std::pair<float, unsigned "
     "int>, std::allocator<std::pair<float, unsigned int> > >, "
     "hnswlib::HierarchicalNSW<float>::CompareByFirst> "
     "hnswlib::HierarchicalNSW<float>::searchBaseLayerST<true, false>(unsigned int, void const*, "
     "unsigned long, hnswlib::BaseFilterFunctor*, hnswlib::BaseSearchStopCondition<float>*) const",
     "hnswlib::HierarchicalNSW<float>::searchBaseLayerST<true,false>",
     "hnswlib::HierarchicalNSW<float>::searchBaseLayerST<true,false>(unsigned int,void "
     "const*,unsigned long,hnswlib::BaseFilterFunctor*,hnswlib::BaseSearchStopCondition<float>*) "
     "const"},
    /* _Z4overRKSt6vectorIfSaIfEE */
    {"over(std::vector<float, std::allocator<float> > const&)", "over", "over(std::vector const&)"},
    /* _Z4overRKSt6vectorIiSaIiEE */
    {"over(std::vector<int, std::allocator<int> > const&)", "over", "over(std::vector const&)"},
    /* _Z4overd */
    {"over(double)", "over", "over(double)"},
    /* _Z4overi */
    {"over(int)", "over", "over(int)"},
    /* _Z5applyIZ4mainE3$_0EiT_ */
    {"int apply<main::$_0>(main::$_0)", "apply<main::$_0>", "apply<main::$_0>(main::$_0)"},
    /* _Z5applyIZ4mainEUliE1_EiT_ */
    {"int apply<main::{lambda(int)#3}>(main::{lambda(int)#3})", "apply<main::{lambda(int)#3}>",
     "apply<main::{lambda(int)#3}>(main::{lambda(int)#3})"},
    /* _Z5applyIZ4mainEUliE_EiT_ */
    {"int apply<main::{lambda(int)#1}>(main::{lambda(int)#1})", "apply<main::{lambda(int)#1}>",
     "apply<main::{lambda(int)#1}>(main::{lambda(int)#1})"},
    /* _Z5getfpIiEPFvT_Ev */
    {"void (*getfp<int>())(int)", "getfp<int>", "getfp<int>()"},
    /* _Z6getarrIiERA3_iS1_ */
    {"int (&getarr<int>(int (&) [3])) [3]", "getarr<int>", "getarr<int>(int (&) [3])"},
    /* _ZN12_GLOBAL__N_14anonEi */
    {"(anonymous namespace)::anon(int)", "(anonymous namespace)::anon",
     "(anonymous namespace)::anon(int)"},
    /* _ZN12_GLOBAL__N_16Hidden1mERSt3mapINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEiSt4lessIS7_ESaISt4pairIKS7_iEEE
     */
    {"(anonymous namespace)::Hidden::m(std::map<std::__cxx11::basic_string<char, "
     "std::char_traits<char>, std::allocator<char> >, int, "
     "std::less<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > >, "
     "std::allocator<std::pair<std::__cxx11::basic_string<char, std::char_traits<char>, "
     "std::allocator<char> > const, int> > >&)",
     "(anonymous namespace)::Hidden::m", "(anonymous namespace)::Hidden::m(std::map&)"},
    /* _ZN3Vec1gEv */
    {"Vec::g()", "Vec::g", "Vec::g()"},
    /* _ZN3VeclsEi */
    {"Vec::operator<<(int)", "Vec::operator<<", "Vec::operator<<(int)"},
    /* _ZN5OuterISt6vectorIiSaIiEEE5InnerIS_IiEE1hES5_ */
    {"Outer<std::vector<int, std::allocator<int> > >::Inner<Outer<int> >::h(Outer<int>)",
     "Outer<std::vector>::Inner<Outer<int>>::h",
     "Outer<std::vector>::Inner<Outer<int>>::h(Outer<int>)"},
    /* _ZN7hnswlib15HierarchicalNSWIfEC2Ev */
    {"hnswlib::HierarchicalNSW<float>::HierarchicalNSW()",
     "hnswlib::HierarchicalNSW<float>::HierarchicalNSW",
     "hnswlib::HierarchicalNSW<float>::HierarchicalNSW()"},
    /* _ZN7hnswlib15HierarchicalNSWIfED2Ev */
    {"hnswlib::HierarchicalNSW<float>::~HierarchicalNSW()",
     "hnswlib::HierarchicalNSW<float>::~HierarchicalNSW",
     "hnswlib::HierarchicalNSW<float>::~HierarchicalNSW()"},
    /* _ZN9__gnu_cxx5__ops14_Iter_comp_valIN7hnswlib15HierarchicalNSWIfE14CompareByFirstEEC2ES5_ */
    {"__gnu_cxx::__ops::_Iter_comp_val<hnswlib::HierarchicalNSW<float>::CompareByFirst>::_Iter_"
     "comp_val(hnswlib::HierarchicalNSW<float>::CompareByFirst)",
     "__gnu_cxx::__ops::_Iter_comp_val::_Iter_comp_val",
     "__gnu_cxx::__ops::_Iter_comp_val::_Iter_comp_val(hnswlib::HierarchicalNSW<float>::"
     "CompareByFirst)"},
    /* _ZN9__gnu_cxx5__ops14_Iter_comp_valIN7hnswlib15HierarchicalNSWIfE14CompareByFirstEEclINS_17__normal_iteratorIPSt4pairIfjESt6vectorISA_SaISA_EEEESA_EEbT_RT0_
     */
    {"bool "
     "__gnu_cxx::__ops::_Iter_comp_val<hnswlib::HierarchicalNSW<float>::CompareByFirst>::operator()"
     "<__gnu_cxx::__normal_iterator<std::pair<float, unsigned int>*, std::vector<std::pair<float, "
     "unsigned int>, std::allocator<std::pair<float, unsigned int> > > >, std::pair<float, "
     "unsigned int> >(__gnu_cxx::__normal_iterator<std::pair<float, unsigned int>*, "
     "std::vector<std::pair<float, unsigned int>, std::allocator<std::pair<float, unsigned int> > "
     "> >, std::pair<float, unsigned int>&)",
     "__gnu_cxx::__ops::_Iter_comp_val::operator()",
     "__gnu_cxx::__ops::_Iter_comp_val::operator()(__gnu_cxx::__normal_iterator,std::pair&)"},
    /* _ZN9__gnu_cxx5__ops15_Iter_comp_iterIZ4mainEUliiE2_EclINS_17__normal_iteratorIPiSt6vectorIiSaIiEEEESA_EEbT_T0_
     */
    {"bool __gnu_cxx::__ops::_Iter_comp_iter<main::{lambda(int, "
     "int)#4}>::operator()<__gnu_cxx::__normal_iterator<int*, std::vector<int, std::allocator<int> "
     "> >, __gnu_cxx::__normal_iterator<int*, std::vector<int, std::allocator<int> > > "
     ">(__gnu_cxx::__normal_iterator<int*, std::vector<int, std::allocator<int> > >, "
     "__gnu_cxx::__normal_iterator<int*, std::vector<int, std::allocator<int> > >)",
     "__gnu_cxx::__ops::_Iter_comp_iter::operator()",
     "__gnu_cxx::__ops::_Iter_comp_iter::operator()(__gnu_cxx::__normal_iterator,__gnu_cxx::__"
     "normal_iterator)"},
    /* _ZN9__gnu_cxx5__ops15__val_comp_iterIZ4mainE3$_2EENS0_14_Val_comp_iterIT_EENS0_15_Iter_comp_iterIS4_EE
     */
    {"__gnu_cxx::__ops::_Val_comp_iter<main::$_2> "
     "__gnu_cxx::__ops::__val_comp_iter<main::$_2>(__gnu_cxx::__ops::_Iter_comp_iter<main::$_2>)",
     "__gnu_cxx::__ops::__val_comp_iter",
     "__gnu_cxx::__ops::__val_comp_iter(__gnu_cxx::__ops::_Iter_comp_iter)"},
    /* _ZN9__gnu_cxx5__ops15__val_comp_iterIZ4mainEUliiE2_EENS0_14_Val_comp_iterIT_EENS0_15_Iter_comp_iterIS4_EE
     */
    {"__gnu_cxx::__ops::_Val_comp_iter<main::{lambda(int, int)#4}> "
     "__gnu_cxx::__ops::__val_comp_iter<main::{lambda(int, "
     "int)#4}>(__gnu_cxx::__ops::_Iter_comp_iter<main::{lambda(int, int)#4}>)",
     "__gnu_cxx::__ops::__val_comp_iter",
     "__gnu_cxx::__ops::__val_comp_iter(__gnu_cxx::__ops::_Iter_comp_iter)"},
    /* _ZNK3VecclEi */
    {"Vec::operator()(int) const", "Vec::operator()", "Vec::operator()(int) const"},
    /* _ZNK3VeccvSt6vectorIiSaIiEEEv */
    {"Vec::operator std::vector<int, std::allocator<int> >() const", "Vec::operator std::vector",
     "Vec::operator std::vector() const"},
    /* _ZNK3VeccvbEv */
    {"Vec::operator bool() const", "Vec::operator bool", "Vec::operator bool() const"},
    /* _ZNK3VecltERKS_ */
    {"Vec::operator<(Vec const&) const", "Vec::operator<", "Vec::operator<(Vec const&) const"},
    /* _ZNK7hnswlib15HierarchicalNSWIfE14CompareByFirstclERKSt4pairIfjES6_ */
    {"hnswlib::HierarchicalNSW<float>::CompareByFirst::operator()(std::pair<float, unsigned int> "
     "const&, std::pair<float, unsigned int> const&) const",
     "hnswlib::HierarchicalNSW<float>::CompareByFirst::operator()",
     "hnswlib::HierarchicalNSW<float>::CompareByFirst::operator()(std::pair const&,std::pair "
     "const&) const"},
    /* _ZNK7hnswlib15HierarchicalNSWIfE17searchBaseLayerSTILb1ELb0EEESt14priority_queueISt4pairIfjESt6vectorIS5_SaIS5_EENS1_14CompareByFirstEEjPKvmPNS_17BaseFilterFunctorIfEEPNS_23BaseSearchStopConditionIfEE
     */
    {"std::priority_queue<std::pair<float, unsigned int>, std::vector<std::pair<float, unsigned "
     "int>, std::allocator<std::pair<float, unsigned int> > >, "
     "hnswlib::HierarchicalNSW<float>::CompareByFirst> "
     "hnswlib::HierarchicalNSW<float>::searchBaseLayerST<true, false>(unsigned int, void const*, "
     "unsigned long, hnswlib::BaseFilterFunctor<float>*, hnswlib::BaseSearchStopCondition<float>*) "
     "const",
     "hnswlib::HierarchicalNSW<float>::searchBaseLayerST<true,false>",
     "hnswlib::HierarchicalNSW<float>::searchBaseLayerST<true,false>(unsigned int,void "
     "const*,unsigned "
     "long,hnswlib::BaseFilterFunctor<float>*,hnswlib::BaseSearchStopCondition<float>*) const"},
    /* _ZNK7hnswlib15HierarchicalNSWIfE4nameB5cxx11Ev */
    {"hnswlib::HierarchicalNSW<float>::name[abi:cxx11]() const",
     "hnswlib::HierarchicalNSW<float>::name", "hnswlib::HierarchicalNSW<float>::name() const"},
    /* _ZNKR3VecixEi */
    {"Vec::operator[](int) const &", "Vec::operator[]", "Vec::operator[](int) const &"},
    /* _ZNKSt8functionIFiiEEclEi */
    {"std::function<int (int)>::operator()(int) const", "std::function::operator()",
     "std::function::operator()(int) const"},
    /* _ZNKSt9_Any_data9_M_accessEv */
    {"std::_Any_data::_M_access() const", "std::_Any_data::_M_access",
     "std::_Any_data::_M_access() const"},
    /* _ZNKSt9_Any_data9_M_accessIZ4mainEUliE_EERKT_v */
    {"main::{lambda(int)#1} const& std::_Any_data::_M_access<main::{lambda(int)#1}>() const",
     "std::_Any_data::_M_access", "std::_Any_data::_M_access() const"},
    /* _ZNO3Vec1fEv */
    {"Vec::f() &&", "Vec::f", "Vec::f() &&"},
    /* _ZNSt14priority_queueISt4pairIfjESt6vectorIS1_SaIS1_EEN7hnswlib15HierarchicalNSWIfE14CompareByFirstEE4pushEOS1_
     */
    {"std::priority_queue<std::pair<float, unsigned int>, std::vector<std::pair<float, unsigned "
     "int>, std::allocator<std::pair<float, unsigned int> > >, "
     "hnswlib::HierarchicalNSW<float>::CompareByFirst>::push(std::pair<float, unsigned int>&&)",
     "std::priority_queue::push", "std::priority_queue::push(std::pair&&)"},
    /* _ZNSt14priority_queueISt4pairIfjESt6vectorIS1_SaIS1_EEN7hnswlib15HierarchicalNSWIfE14CompareByFirstEEC2IS4_vEEv
     */
    {"std::priority_queue<std::pair<float, unsigned int>, std::vector<std::pair<float, unsigned "
     "int>, std::allocator<std::pair<float, unsigned int> > >, "
     "hnswlib::HierarchicalNSW<float>::CompareByFirst>::priority_queue<std::vector<std::pair<float,"
     " unsigned int>, std::allocator<std::pair<float, unsigned int> > >, void>()",
     "std::priority_queue::priority_queue", "std::priority_queue::priority_queue()"},
    /* _ZNSt14priority_queueISt4pairIfjESt6vectorIS1_SaIS1_EEN7hnswlib15HierarchicalNSWIfE14CompareByFirstEED2Ev
     */
    {"std::priority_queue<std::pair<float, unsigned int>, std::vector<std::pair<float, unsigned "
     "int>, std::allocator<std::pair<float, unsigned int> > >, "
     "hnswlib::HierarchicalNSW<float>::CompareByFirst>::~priority_queue()",
     "std::priority_queue::~priority_queue", "std::priority_queue::~priority_queue()"},
    /* _ZNSt17_Function_handlerIFiiEZ4mainE3$_0E9_M_invokeERKSt9_Any_dataOi */
    {"std::_Function_handler<int (int), main::$_0>::_M_invoke(std::_Any_data const&, int&&)",
     "std::_Function_handler::_M_invoke",
     "std::_Function_handler::_M_invoke(std::_Any_data const&,int&&)"},
    /* _ZNSt17_Function_handlerIFiiEZ4mainEUliE_E9_M_invokeERKSt9_Any_dataOi */
    {"std::_Function_handler<int (int), main::{lambda(int)#1}>::_M_invoke(std::_Any_data const&, "
     "int&&)",
     "std::_Function_handler::_M_invoke",
     "std::_Function_handler::_M_invoke(std::_Any_data const&,int&&)"},
    /* _ZNSt8_Rb_treeINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEESt4pairIKS5_iESt10_Select1stIS8_ESt4lessIS5_ESaIS8_EE8_M_eraseEPSt13_Rb_tree_nodeIS8_E
     */
    {"std::_Rb_tree<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> "
     ">, std::pair<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > "
     "const, int>, std::_Select1st<std::pair<std::__cxx11::basic_string<char, "
     "std::char_traits<char>, std::allocator<char> > const, int> >, "
     "std::less<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > >, "
     "std::allocator<std::pair<std::__cxx11::basic_string<char, std::char_traits<char>, "
     "std::allocator<char> > const, int> > "
     ">::_M_erase(std::_Rb_tree_node<std::pair<std::__cxx11::basic_string<char, "
     "std::char_traits<char>, std::allocator<char> > const, int> >*)",
     "std::_Rb_tree::_M_erase", "std::_Rb_tree::_M_erase(std::_Rb_tree_node*)"},
    /* _ZSt11__push_heapIN9__gnu_cxx17__normal_iteratorIPSt4pairIfjESt6vectorIS3_SaIS3_EEEElS3_NS0_5__ops14_Iter_comp_valIN7hnswlib15HierarchicalNSWIfE14CompareByFirstEEEEvT_T0_SH_T1_RT2_
     */
    {"void std::__push_heap<__gnu_cxx::__normal_iterator<std::pair<float, unsigned int>*, "
     "std::vector<std::pair<float, unsigned int>, std::allocator<std::pair<float, unsigned int> > "
     "> >, long, std::pair<float, unsigned int>, "
     "__gnu_cxx::__ops::_Iter_comp_val<hnswlib::HierarchicalNSW<float>::CompareByFirst> "
     ">(__gnu_cxx::__normal_iterator<std::pair<float, unsigned int>*, std::vector<std::pair<float, "
     "unsigned int>, std::allocator<std::pair<float, unsigned int> > > >, long, long, "
     "std::pair<float, unsigned int>, "
     "__gnu_cxx::__ops::_Iter_comp_val<hnswlib::HierarchicalNSW<float>::CompareByFirst>&)",
     "std::__push_heap",
     "std::__push_heap(__gnu_cxx::__normal_iterator,long,long,std::pair,__gnu_cxx::__ops::_Iter_"
     "comp_val&)"},
    /* _ZSt4moveIRN7hnswlib15HierarchicalNSWIfE14CompareByFirstEEONSt16remove_referenceIT_E4typeEOS6_
     */
    {"std::remove_reference<hnswlib::HierarchicalNSW<float>::CompareByFirst&>::type&& "
     "std::move<hnswlib::HierarchicalNSW<float>::CompareByFirst&>(hnswlib::HierarchicalNSW<float>::"
     "CompareByFirst&)",
     "std::move", "std::move(hnswlib::HierarchicalNSW<float>::CompareByFirst&)"},
    /* _ZSt4sortIN9__gnu_cxx17__normal_iteratorIPiSt6vectorIiSaIiEEEEZ4mainE3$_2EvT_S8_T0_ */
    {"void std::sort<__gnu_cxx::__normal_iterator<int*, std::vector<int, std::allocator<int> > >, "
     "main::$_2>(__gnu_cxx::__normal_iterator<int*, std::vector<int, std::allocator<int> > >, "
     "__gnu_cxx::__normal_iterator<int*, std::vector<int, std::allocator<int> > >, main::$_2)",
     "std::sort", "std::sort(__gnu_cxx::__normal_iterator,__gnu_cxx::__normal_iterator,main::$_2)"},
    /* _ZSt4sortIN9__gnu_cxx17__normal_iteratorIPiSt6vectorIiSaIiEEEEZ4mainEUliiE2_EvT_S8_T0_ */
    {"void std::sort<__gnu_cxx::__normal_iterator<int*, std::vector<int, std::allocator<int> > >, "
     "main::{lambda(int, int)#4}>(__gnu_cxx::__normal_iterator<int*, std::vector<int, "
     "std::allocator<int> > >, __gnu_cxx::__normal_iterator<int*, std::vector<int, "
     "std::allocator<int> > >, main::{lambda(int, int)#4})",
     "std::sort",
     "std::sort(__gnu_cxx::__normal_iterator,__gnu_cxx::__normal_iterator,main::{lambda(int,int)#4}"
     ")"},
    /* _ZSt9push_heapIN9__gnu_cxx17__normal_iteratorIPSt4pairIfjESt6vectorIS3_SaIS3_EEEEN7hnswlib15HierarchicalNSWIfE14CompareByFirstEEvT_SD_T0_
     */
    {"void std::push_heap<__gnu_cxx::__normal_iterator<std::pair<float, unsigned int>*, "
     "std::vector<std::pair<float, unsigned int>, std::allocator<std::pair<float, unsigned int> > "
     "> >, "
     "hnswlib::HierarchicalNSW<float>::CompareByFirst>(__gnu_cxx::__normal_iterator<std::pair<"
     "float, unsigned int>*, std::vector<std::pair<float, unsigned int>, "
     "std::allocator<std::pair<float, unsigned int> > > >, "
     "__gnu_cxx::__normal_iterator<std::pair<float, unsigned int>*, std::vector<std::pair<float, "
     "unsigned int>, std::allocator<std::pair<float, unsigned int> > > >, "
     "hnswlib::HierarchicalNSW<float>::CompareByFirst)",
     "std::push_heap",
     "std::push_heap(__gnu_cxx::__normal_iterator,__gnu_cxx::__normal_iterator,hnswlib::"
     "HierarchicalNSW<float>::CompareByFirst)"},
    /* _ZZ4mainENK3$_0clEi */
    {"main::$_0::operator()(int) const", "main::$_0::operator()",
     "main::$_0::operator()(int) const"},
    /* _ZZ4mainENK3$_1clEi */
    {"main::$_1::operator()(int) const", "main::$_1::operator()",
     "main::$_1::operator()(int) const"},
    /* _ZZ4mainENK3$_2clEii */
    {"main::$_2::operator()(int, int) const", "main::$_2::operator()",
     "main::$_2::operator()(int,int) const"},
    /* _ZZ4mainENK3$_3clEiRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE */
    {"main::$_3::operator()(int, std::__cxx11::basic_string<char, std::char_traits<char>, "
     "std::allocator<char> > const&) const",
     "main::$_3::operator()", "main::$_3::operator()(int,std::__cxx11::basic_string const&) const"},
    /* _ZZ4mainENKUliE1_clEi */
    {"main::{lambda(int)#3}::operator()(int) const", "main::{lambda(int)#3}::operator()",
     "main::{lambda(int)#3}::operator()(int) const"},
    /* _ZZ4mainENKUliE_clEi */
    {"main::{lambda(int)#1}::operator()(int) const", "main::{lambda(int)#1}::operator()",
     "main::{lambda(int)#1}::operator()(int) const"},
    /* _ZZ4mainENKUliRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEE0_clEiS6_ */
    {"main::{lambda(int, std::__cxx11::basic_string<char, std::char_traits<char>, "
     "std::allocator<char> > const&)#2}::operator()(int, std::__cxx11::basic_string<char, "
     "std::char_traits<char>, std::allocator<char> > const&) const",
     "main::{lambda(int,std::__cxx11::basic_string const&)#2}::operator()",
     "main::{lambda(int,std::__cxx11::basic_string "
     "const&)#2}::operator()(int,std::__cxx11::basic_string const&) const"},
    /* _ZZ4mainENKUliiE2_clEii */
    {"main::{lambda(int, int)#4}::operator()(int, int) const",
     "main::{lambda(int,int)#4}::operator()",
     "main::{lambda(int,int)#4}::operator()(int,int) const"},
    /* _ZZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE12_M_constructIPKcEEvT_S8_St20forward_iterator_tagEN6_GuardC2EPS4_
     */
    {"std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> "
     ">::_M_construct<char const*>(char const*, char const*, "
     "std::forward_iterator_tag)::_Guard::_Guard(std::__cxx11::basic_string<char, "
     "std::char_traits<char>, std::allocator<char> >*)",
     "std::__cxx11::basic_string::_M_construct::_Guard::_Guard",
     "std::__cxx11::basic_string::_M_construct(char const*,char "
     "const*,std::forward_iterator_tag)::_Guard::_Guard(std::__cxx11::basic_string*)"},
    /* _ZlsRSoRK3Vec */
    {"operator<<(std::basic_ostream<char, std::char_traits<char> >&, Vec const&)", "operator<<",
     "operator<<(std::basic_ostream&,Vec const&)"},
};

/* Hand-written: library operators, clones, LLVM's lambdas, odd returns. */
static const struct cxx_case odd[] = {
    {"std::basic_ostream<char, std::char_traits<char> >& std::operator<< "
     "<std::char_traits<char> >(std::basic_ostream<char, std::char_traits<char> >&, char const*)",
     "std::operator<<", "std::operator<<(std::basic_ostream&,char const*)"},
    {"Foo& operator<< <Bar<int> >(Foo&, Bar<int> const&)", "operator<< <Bar<int>>",
     "operator<< <Bar<int>>(Foo&,Bar<int> const&)"},
    {"operator<<(std::basic_ostream<char, std::char_traits<char> >&, Vec const&)", "operator<<",
     "operator<<(std::basic_ostream&,Vec const&)"},
    {"Foo::operator void (*)(int)() const", "Foo::operator void (*)(int)",
     "Foo::operator void (*)(int)() const"},
    {"foo(int) [clone .cold]", "foo [clone .cold]", "foo(int) [clone .cold]"},
    {"ns::f() const &", "ns::f", "ns::f() const &"},
    {"main::'lambda'(int)::operator()(int) const", "main::'lambda'(int)::operator()",
     "main::'lambda'(int)::operator()(int) const"},
    {"operator\"\"_km(unsigned long long)", "operator\"\"_km",
     "operator\"\"_km(unsigned long long)"},
    {"std::vector<int, std::allocator<int> >::operator[](unsigned long)", "std::vector::operator[]",
     "std::vector::operator[](unsigned long)"},
    {"Foo::operator->() const", "Foo::operator->", "Foo::operator->() const"},
    {"Foo::operator->*(int)", "Foo::operator->*", "Foo::operator->*(int)"},
    {"Foo::operator<=>(Foo const&) const", "Foo::operator<=>",
     "Foo::operator<=>(Foo const&) const"},
    {"Foo::operator>(Foo const&) const", "Foo::operator>", "Foo::operator>(Foo const&) const"},
    {"Foo::operator>><int>(int)", "Foo::operator>><int>", "Foo::operator>><int>(int)"},
    {"operator delete[](void*)", "operator delete[]", "operator delete[](void*)"},
    {"operator new(unsigned long)", "operator new", "operator new(unsigned long)"},
    {"a::operator,(int, int)", "a::operator,", "a::operator,(int,int)"},
    {"std::map<int, int, std::less<int>, std::allocator<std::pair<int const, int> > >::find(int "
     "const&)",
     "std::map::find", "std::map::find(int const&)"},
    {"int (Foo::*get<int>())()", "get<int>", "get<int>()"},
    {"foo()::bar::baz(int)", "foo::bar::baz", "foo()::bar::baz(int)"},
    {"decltype (({parm#1}->foo)()) call<X>(X)", "call<X>", "call<X>(X)"},
    {"(anonymous namespace)::X (anonymous namespace)::make<(anonymous namespace)::Y>()",
     "(anonymous namespace)::make<(anonymous namespace)::Y>",
     "(anonymous namespace)::make<(anonymous namespace)::Y>()"},
    {"unsigned long Outer<Inner<int>, 3>::size<std::vector<int, std::allocator<int> > >(int) "
     "const volatile",
     "Outer<Inner<int>,3>::size<std::vector>",
     "Outer<Inner<int>,3>::size<std::vector>(int) const volatile"},
    /* C names and what is not a function pass through */
    {"main", "main", "main"},
    {"plain_c", "plain_c", "plain_c"},
    {"ext:strcmp", "ext:strcmp", "ext:strcmp"},
    {"<indirect>", "<indirect>", "<indirect>"},
    {"foo.cold", "foo.cold", "foo.cold"},
    {"", "", ""},
    /* brackets that do not pair up: as they came */
    {"foo(int", "foo(int", "foo(int"},
    {"foo>(int)", "foo>(int)", "foo>(int)"},
    {"a<b(int)", "a<b(int)", "a<b(int)"},
    {"std::vector<int>>::f()", "std::vector<int>>::f()", "std::vector<int>>::f()"},
    {")))(((", ")))(((", ")))((("},
    {"(int)", "(int)", "(int)"},
    {"operator", "operator", "operator"},
};

/* Each case, in a buffer of exactly its name's size: never longer. */
static void test_cases(const struct cxx_case *c, size_t n)
{
	for (; n--; c++) {
		size_t len = strlen(c->dem) + 1;
		char *buf = malloc(len);
		int err;

		CHECK(buf, "out of memory");
		if (!buf)
			return;
		err = pp_cxx_short_name(c->dem, 0, buf, len);
		CHECK(!err && !strcmp(buf, c->shown), "%s\n  short: got \"%s\" (%d), want \"%s\"",
		      c->dem, buf, err, c->shown);
		err = pp_cxx_short_name(c->dem, PP_CXX_PARAMS, buf, len);
		CHECK(!err && !strcmp(buf, c->params),
		      "%s\n  with parameters: got \"%s\" (%d), want \"%s\"", c->dem, buf, err,
		      c->params);
		free(buf);
	}
}

static void test_short(void)
{
	test_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

static void test_odd(void)
{
	test_cases(odd, sizeof(odd) / sizeof(odd[0]));
}

/* A buffer too small: the name cut, NUL-terminated, -ENOSPC. */
static void test_space(void)
{
	char buf[8];
	int err = pp_cxx_short_name("hnswlib::HierarchicalNSW<float>::name[abi:cxx11]() const", 0,
				    buf, sizeof(buf));

	CHECK(err == -ENOSPC && !strcmp(buf, "hnswlib"), "cut: %d \"%s\"", err, buf);
	err = pp_cxx_short_name("f(int)", 0, buf, 2);
	CHECK(!err && !strcmp(buf, "f"), "f in 2 bytes: %d \"%s\"", err, buf);
	err = pp_cxx_short_name("f(int)", 0, buf, 1);
	CHECK(err == -ENOSPC && !buf[0], "f in 1 byte: %d \"%s\"", err, buf);
	err = pp_cxx_short_name("f(int)", 0, buf, 0);
	CHECK(err == -ENOSPC, "no room: %d", err);
	err = pp_cxx_short_name("ns::f(int)", 0, buf, sizeof(buf));
	CHECK(!err && !strcmp(buf, "ns::f"), "fits: %d \"%s\"", err, buf);
}

/* Brackets nested 300 deep: left as they came, without recursing that deep. */
static void test_deep(void)
{
	char name[1024], buf[1024];
	size_t n = 0;

	n += (size_t)snprintf(name + n, sizeof(name) - n, "f");
	for (int i = 0; i < 300; i++)
		name[n++] = '<';
	for (int i = 0; i < 300; i++)
		name[n++] = '>';
	snprintf(name + n, sizeof(name) - n, "(int)");
	CHECK(!pp_cxx_short_name(name, 0, buf, sizeof(buf)) && !strcmp(buf, name),
	      "300 deep: \"%.40s...\"", buf);
	CHECK(!pp_cxx_short_name("f<<int>>(int)", 0, buf, sizeof(buf)) && !strcmp(buf, "f<<int>>"),
	      "2 deep: \"%s\"", buf);
}

/* The names of one report: gathered (demangled whole), then settled. */
static void test_names(void)
{
	static const char *const linkage[] = {
	    "_Z4overi",			  /* over(int) */
	    "_Z4overd",			  /* over(double) */
	    "_Z4overRKSt6vectorIiSaIiEE", /* over(std::vector<int> const&) */
	    "_Z4overRKSt6vectorIfSaIfEE", /* over(std::vector<float> const&) */
	    "_ZNK7hnswlib15HierarchicalNSWIfE17searchBaseLayerSTILb1ELb0EEESt14priority_"
	    "queueISt4pai"
	    "rIfjESt6vectorIS5_SaIS5_EENS1_14CompareByFirstEEjPKvmPNS_17BaseFilterFunctorIfEEPNS_23"
	    "BaseSearchStopConditionIfEE",
	    "_ZN7hnswlib15HierarchicalNSWIfEC2Ev", /* constructor variants: one name */
	    "_ZN7hnswlib15HierarchicalNSWIfEC1Ev",
	    "_ZNK3VecltERKS_",		/* Vec::operator<(Vec const&) const */
	    "_ZN12_GLOBAL__N_14anonEi", /* (anonymous namespace)::anon(int) */
	    "_ZN3Vec4anonEv",		/* Vec::anon(): another anon */
	    "anon",			/* a C function of that name */
	    "_Z4anonv",			/* and a C++ one, anon() */
	    "main",
	    "ext:strcmp",
	};
	static const char *const want[] = {
	    "over(int)",
	    "over(double)",
	    "over(std::vector<int, std::allocator<int> > const&)",
	    "over(std::vector<float, std::allocator<float> > const&)",
	    "hnswlib::HierarchicalNSW<float>::searchBaseLayerST<true,false>",
	    "hnswlib::HierarchicalNSW<float>::HierarchicalNSW",
	    "hnswlib::HierarchicalNSW<float>::HierarchicalNSW",
	    "Vec::operator<",
	    "(anonymous namespace)::anon",
	    "Vec::anon",
	    "anon",
	    "anon()",
	    "main",
	    "ext:strcmp",
	};
	const size_t n = sizeof(linkage) / sizeof(linkage[0]);
	struct pp_names nm;

	CHECK(!strcmp(pp_names_get(NULL, "_Z4overi"), "over(int)"), "no set: demangled");
	pp_names_init(&nm);
	for (size_t i = 0; i < n; i++)
		CHECK(!strcmp(pp_names_get(&nm, linkage[i]), pp_demangle(linkage[i])),
		      "gathering %s: demangled whole", linkage[i]);
	CHECK(nm.n == n - 1, "%zu names gathered, %zu expected (C1 and C2 share one)", nm.n, n - 1);
	CHECK(!pp_names_settle(&nm), "settle");
	for (size_t i = 0; i < n; i++) {
		const char *got = pp_names_get(&nm, linkage[i]);

		CHECK(!strcmp(got, want[i]), "%s: got \"%s\", want \"%s\"", linkage[i], got,
		      want[i]);
	}
	/* a name not gathered: whole, not a guess */
	CHECK(!strcmp(pp_names_get(&nm, "_ZN3Vec1gEv"), "Vec::g()"), "not gathered: %s",
	      pp_names_get(&nm, "_ZN3Vec1gEv"));
	pp_names_free(&nm);
	/* settled with nothing gathered, freed twice */
	pp_names_init(&nm);
	CHECK(!pp_names_settle(&nm), "settle nothing");
	pp_names_free(&nm);
	pp_names_free(&nm);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} tests[] = {{"short", test_short},
		     {"odd", test_odd},
		     {"space", test_space},
		     {"deep", test_deep},
		     {"names", test_names}};
	int ran = 0;

	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		if (argc < 2 || !strcmp(argv[1], tests[i].name)) {
			tests[i].fn();
			ran++;
		}
	if (!ran) {
		fprintf(stderr, "no test named %s\n", argv[1]);
		return 2;
	}
	return report(argv[0]);
}
