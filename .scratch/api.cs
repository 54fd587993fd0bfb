#:package protobuf-net@3.2.56
#:property ManagePackageVersionsCentrally=false
#:property TreatWarningsAsErrors=false
using ProtoBuf.Meta;
foreach (var m in typeof(MetaType).GetMembers(System.Reflection.BindingFlags.Public|System.Reflection.BindingFlags.Instance|System.Reflection.BindingFlags.DeclaredOnly)) Console.Write(m.Name + " ");
Console.WriteLine();
foreach (var m in typeof(ValueMember).GetProperties()) Console.Write(m.Name + " ");
Console.WriteLine();
foreach (var m in typeof(CallbackSet).GetProperties()) Console.Write(m.Name + " ");
