using RpcCompare.ContractCorpus;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>
/// The corpus contracts the fast tests serve, generated as a team's host would generate its own.
/// IAsyncPatternWithOut (Begin/End only), IChat (duplex) and ITicker (an IAsyncEnumerable result) are
/// listed to be skipped, with the reason in the generated file.
/// </summary>
[FastContracts(typeof(ICalculator), typeof(IOrderService), typeof(IParameterShapes), typeof(IValueTaskForms), typeof(IShapes), typeof(IDataShapes),
    typeof(IProbe), typeof(ISyncAndTaskForms), typeof(IStreamedFiles), typeof(IValueTaskNames), typeof(IRenamedOperations), typeof(IWithoutNamespace),
    typeof(IDerivedFromUnattributed), typeof(IAsyncPatternWithOut), typeof(IChat), typeof(FastCallTests.ITicker))]
internal sealed partial class GeneratedCorpus
{
}
